// Attribution on synthetic comparisons: which layer explains a change (both
// swaps, beyond the A/A control, each alone or the two together), its share, a
// layer that reproduces the change one way only (named, not attributed), an
// A/A control that moved, and the
// interaction notes. The comparisons are given directly (ratio, interval,
// verdict by bench-runner's rule), so the logic is tested, not the statistics;
// the statistics (the process model) are tested in bench-runner; the two
// together on synthetic processes at the end.
import { normalVariate, processModel, seededRandom, verdictOf } from '@layerbench/bench-runner/stats';
import { describe, expect, it } from 'vitest';
import {
  attributeCase,
  explainsTogether,
  inOverOutWeights,
  mainEffectWeights,
  reproduces,
  type CaseComparisons,
  type Effect,
} from '../src/bisect/attribution.ts';

/** An effect with a +-half-width interval around `ratio`, verdict by the one rule (threshold 0.03 unless given). */
const effect = (ratio: number, half = 0.02, threshold = 0.03): Effect => {
  const ci: [number, number] = [ratio * (1 - half), ratio * (1 + half)];
  return { ratio, ci, pValue: ci[0] > 1 || ci[1] < 1 ? 0.001 : 0.5, verdict: verdictOf(ci, threshold) };
};

/**
 * Comparisons from a table of "base>head" -> ratio (unknown pairs are not
 * measured); over the control: the ratio over good>control's, its interval
 * wider by sqrt(2), verdict at threshold 0.
 */
const table = (ratios: Record<string, number>, half = 0.02): CaseComparisons => {
  const ratio = (base: string, head: string) => ratios[`${base}>${head}`];
  return {
    compare: (base, head) => {
      const r = ratio(base, head);
      return r === undefined ? undefined : effect(r, half);
    },
    overControl: (base, head) => {
      const r = ratio(base, head);
      const c = ratio('good', 'control');
      return r === undefined || c === undefined ? undefined : effect(r / c, half * Math.SQRT2, 0);
    },
    // The two swaps together: their geometric mean, measured twice as often (interval narrower by sqrt(2)).
    together: (layer) => {
      const i = ratio('good', `good+${layer}`);
      const o = ratio(`bad-${layer}`, 'bad');
      const c = ratio('good', 'control');
      if (i === undefined || o === undefined || c === undefined) return undefined;
      const main = Math.sqrt(i * o);
      return {
        effect: effect(main, half / Math.SQRT2),
        overControl: effect(main / c, half, 0),
        inOverOut: effect(i / o, half * Math.SQRT2, 0),
      };
    },
  };
};

describe('attributeCase', () => {
  it('names the one layer whose swaps reproduce a 5x slowdown both ways, with its whole share', () => {
    const compare = table({
      'good>bad': 5,
      'good>control': 1,
      'good>good+sha1-dispatch': 5,
      'bad-sha1-dispatch>bad': 5,
      'good>good+aes-core': 1,
      'bad-aes-core>bad': 1,
    });
    const a = attributeCase(['sha1-dispatch', 'aes-core'], compare, {}, 0.03)!;
    expect(a.total.verdict).toBe('regressed');
    expect(a.control?.verdict).toBe('unchanged');
    expect(a.attributed).toEqual(['sha1-dispatch']);
    expect(a.oneWay).toEqual([]);
    const sha1 = a.layers.find((l) => l.layer === 'sha1-dispatch')!;
    expect(sha1).toMatchObject({ reproduced: 'both', explains: true });
    expect(sha1.share).toBeCloseTo(1, 5);
    expect(a.layers.find((l) => l.layer === 'aes-core')).toMatchObject({ reproduced: 'neither', explains: false });
    expect(a.notes).toEqual([]);
  });

  it('splits a change between two slower layers whose shares add up', () => {
    const compare = table({
      'good>bad': 1.32,
      'good>control': 1,
      'good>good+cmac': 1.1,
      'bad-cmac>bad': 1.1,
      'good>good+aes-core': 1.2,
      'bad-aes-core>bad': 1.2,
    });
    const a = attributeCase(['cmac', 'aes-core'], compare, {}, 0.03)!;
    expect(a.attributed).toEqual(['aes-core', 'cmac']);
    const shares = a.layers.map((l) => l.share!);
    expect(shares[0]! + shares[1]!).toBeCloseTo(1, 2);
    expect(a.notes).toEqual([]);
  });

  it('does not attribute a layer that reproduces the change one way only, and says so (issue 12: cmac x1.062 in, x1.007 out)', () => {
    const compare = table(
      {
        'good>bad': 1.2,
        'good>control': 1,
        'good>good+aes-core': 1.2,
        'bad-aes-core>bad': 1.2,
        'good>good+cmac': 1.062,
        'bad-cmac>bad': 1.007,
      },
      0.01,
    );
    const a = attributeCase(['aes-core', 'cmac'], compare, {}, 0.03)!;
    expect(a.attributed).toEqual(['aes-core']);
    expect(a.oneWay).toEqual(['cmac']);
    expect(a.layers.find((l) => l.layer === 'cmac')).toMatchObject({ reproduced: 'in', explains: false });
    expect(a.notes).toContain(
      'cmac reproduces the change only when swapped in (x1.062 [1.051, 1.073]), not when swapped out (x1.007 [0.997, 1.017]): not attributed',
    );
  });

  it('needs a swap to clear the A/A control: a significant effect no bigger than the control explains nothing', () => {
    // The A/A control itself reads x1.06 [1.039, 1.081], regressed: identical stacks differ that much here.
    const compare = table({ 'good>control': 1.06, 'good>bad': 1.3, 'good>good+esp': 1.07, 'bad-esp>bad': 1.07 });
    const a = attributeCase(['esp'], compare, {}, 0.03)!;
    expect(a.total.verdict).toBe('regressed');
    expect(a.layers[0]!.swapIn!.verdict).toBe('regressed');
    expect(a.attributed).toEqual([]);
    expect(a.notes.join(' ')).toMatch(/the A\/A control moved \(x1\.060 \[1\.039, 1\.081\], regressed\)/);
    expect(a.notes.join(' ')).toMatch(/no single layer reproduces the change beyond the A\/A control/);
  });

  it('attributes nothing without an A/A control, and says why', () => {
    const compare = table({ 'good>bad': 5, 'good>good+esp': 5, 'bad-esp>bad': 5 });
    const a = attributeCase(['esp'], compare, { control: 'this mix cannot run: no memory' }, 0.03)!;
    expect(a.attributed).toEqual([]);
    expect(a.notes[0]).toBe('no A/A control (this mix cannot run: no memory): no layer can be attributed');
  });

  it('notes an interaction when only the two layers together are slow', () => {
    const compare = table({
      'good>bad': 3,
      'good>control': 1,
      'good>good+cmac': 1,
      'bad-cmac>bad': 3,
      'good>good+aes-core': 1,
      'bad-aes-core>bad': 3,
    });
    const a = attributeCase(['cmac', 'aes-core'], compare, {}, 0.03)!;
    expect(a.total.verdict).toBe('regressed');
    expect(a.attributed).toEqual([]);
    expect(a.oneWay).toEqual(['cmac', 'aes-core']);
    expect(a.notes).toContain(
      'the parts do not add up: one layer at a time they give x1.000, the whole change is x3.000',
    );
  });

  it('two layers each adding their own time add up (1 + sum of (in - 1)), with no interaction note', () => {
    // Good stack 100 ns; aes-core adds 29 ns, cmac 28 ns: bad 157 ns. The product of the swap-ins (x1.651)
    // would lie outside the total's interval; the sum of the added times is the whole change.
    const compare = table({
      'good>bad': 1.57,
      'good>control': 1,
      'good>good+aes-core': 1.29,
      'bad-aes-core>bad': 1.57 / 1.28,
      'good>good+cmac': 1.28,
      'bad-cmac>bad': 1.57 / 1.29,
    });
    const a = attributeCase(['aes-core', 'cmac'], compare, {}, 0.03)!;
    expect(a.attributed).toEqual(['aes-core', 'cmac']);
    expect(a.notes.join(' ')).not.toMatch(/do not add up/);
    const shares = a.layers.map((l) => l.share!);
    expect(shares[0]! + shares[1]!).toBeCloseTo(1, 6);
  });

  it("says the parts do not add up only when the gap exceeds the parts' and the whole's intervals together", () => {
    // The two-layer scenario in a CI run: parts x1.652 (the swap-ins x1.33 and x1.32), whole x1.577. The parts'
    // point estimate lay outside the whole's interval, but each swap-in has an interval of its own (here +-4%).
    const ratios = {
      'good>bad': 1.577,
      'good>control': 1,
      'good>good+aes-core': 1.33,
      'bad-aes-core>bad': 1.577 / 1.3,
      'good>good+cmac': 1.322,
      'bad-cmac>bad': 1.577 / 1.3,
    };
    const wide = attributeCase(['aes-core', 'cmac'], table(ratios, 0.04), {}, 0.03)!;
    expect(wide.attributed).toEqual(['aes-core', 'cmac']);
    expect(wide.total.ci[1]).toBeLessThan(1.652);
    expect(wide.notes.join(' ')).not.toMatch(/do not add up/);
    // The same figures measured ten times more tightly (+-0.4%): the gap is real, and named.
    const tight = attributeCase(['aes-core', 'cmac'], table(ratios, 0.004), {}, 0.03)!;
    expect(tight.notes).toContain(
      'the parts do not add up: one layer at a time they give x1.652, the whole change is x1.577',
    );
  });

  it('attributes nothing when nothing changed, and reports a swap that cannot run', () => {
    const compare = table({ 'good>bad': 1, 'good>control': 1, 'good>good+esp': 1 });
    const a = attributeCase(['esp'], compare, { 'bad-esp': 'this mix cannot run: esp throws at import' }, 0.03)!;
    expect(a.total.verdict).toBe('unchanged');
    expect(a.attributed).toEqual([]);
    expect(a.notes).toEqual([]);
    expect(a.layers[0]!.problem).toBe('bad-esp: this mix cannot run: esp throws at import');
  });

  it('has no attribution at all without the all-good or all-bad stack', () => {
    expect(attributeCase(['esp'], table({ 'good>control': 1 }), {}, 0.03)).toBeUndefined();
  });

  it('names the only differing layer by its two swaps together when one alone falls short (x1.057 regressed, "(in only)")', () => {
    // One layer differs: good+sha1-dispatch is the bad stack, bad-sha1-dispatch the good one. In x1.055 clears
    // 1.03 (+-2%); out x1.045 does not ([1.024, 1.066]); together x1.050 +-1.4% does, beyond the control.
    const compare = table({
      'good>bad': 1.057,
      'good>control': 1,
      'good>good+sha1-dispatch': 1.055,
      'bad-sha1-dispatch>bad': 1.045,
    });
    const a = attributeCase(['sha1-dispatch'], compare, {}, 0.03)!;
    expect(a.total.verdict).toBe('regressed');
    const l = a.layers[0]!;
    expect(l).toMatchObject({ reproduced: 'in', explains: true, explainedBy: 'together' });
    expect(l.together!.verdict).toBe('regressed');
    expect(a.attributed).toEqual(['sha1-dispatch']);
    expect(a.oneWay).toEqual([]);
    expect(a.notes).toEqual([
      'sha1-dispatch explains the change by its two swaps together (x1.050 [1.035, 1.065]; in x1.055, out x1.045, not significantly different), not by each alone',
    ]);
  });

  it('does not attribute by the two swaps together when they disagree, or one moved the other way, or neither clears the control', () => {
    const together = (ratio: number, overControl: number, inOverOut: number) => ({
      effect: effect(ratio, 0.014),
      overControl: effect(overControl, 0.02, 0),
      inOverOut: effect(inOverOut, 0.028, 0),
    });
    // Agreeing swaps: yes.
    expect(explainsTogether(together(1.05, 1.05, 1.01), effect(1.055), effect(1.045), 'regressed')).toBe(true);
    // In / out significant: the layer's effect depends on the others (the interaction scenario).
    expect(explainsTogether(together(1.05, 1.05, 1.06), effect(1.08), effect(1.02), 'regressed')).toBe(false);
    // A swap that moved the other way.
    expect(explainsTogether(together(1.05, 1.05, 1.01), effect(1.12), effect(0.99), 'regressed')).toBe(false);
    // Not beyond the control, or not clear of the threshold together.
    expect(explainsTogether(together(1.05, 1.01, 1.01), effect(1.055), effect(1.045), 'regressed')).toBe(false);
    expect(explainsTogether(together(1.035, 1.035, 1.0), effect(1.04), effect(1.03), 'regressed')).toBe(false);
    // The other direction, and a swap not measured.
    expect(explainsTogether(together(0.95, 0.95, 1.0), effect(0.95), effect(0.95), 'improved')).toBe(true);
    expect(explainsTogether(together(1.05, 1.05, 1.0), effect(1.05), undefined, 'regressed')).toBe(false);
  });

  it('reproduces: the swap significant in the direction of the change, and significantly beyond the control', () => {
    expect(reproduces(effect(1.2), effect(1.2, 0.02, 0), 'regressed')).toBe(true);
    expect(reproduces(effect(1.2), effect(1.2, 0.02, 0), 'improved')).toBe(false);
    expect(reproduces(effect(0.8), effect(0.8, 0.02, 0), 'improved')).toBe(true);
    expect(reproduces(effect(1.06), effect(1.01, 0.02, 0), 'regressed')).toBe(false);
    expect(reproduces(effect(1.2), undefined, 'regressed')).toBe(false);
  });
});

describe('attribution on synthetic processes (process model + attribution)', () => {
  // Every variant in 3 processes (or `processes`) of 6 visits; processes differ as a whole by `processSd`.
  const simulate = (seed: number, truth: Record<string, number>, processSd: number, processes = 3) => {
    const random = seededRandom(seed);
    const values: Record<string, number[][]> = {};
    for (const [variant, t] of Object.entries(truth)) {
      values[variant] = Array.from({ length: processes }, () => {
        const offset = Math.exp(processSd * normalVariate(random));
        return Array.from({ length: 6 }, () => 1000 * t * offset * Math.exp(0.01 * normalVariate(random)));
      });
    }
    const model = processModel(values, { threshold: 0.03, alpha: 0.01 });
    const effectOf = (c: ReturnType<typeof model.compare>): Effect | undefined =>
      c && { ratio: c.ratio, ci: c.ratioCi, pValue: c.pValue, verdict: c.verdict };
    const comparisons: CaseComparisons = {
      compare: (b, h) => effectOf(model.compare(b, h)),
      overControl: (b, h) => {
        const w: Record<string, number> = {};
        for (const [v, x] of [
          [h, 1],
          [b, -1],
          ['control', -1],
          ['good', 1],
        ] as const)
          w[v] = (w[v] ?? 0) + x;
        return effectOf(model.contrast(w, 0));
      },
      together: (layer) => {
        const main = mainEffectWeights(layer);
        const e = effectOf(model.contrast(main));
        const o = effectOf(model.contrast({ ...main, control: -1, good: (main.good ?? 0) + 1 }, 0));
        const io = effectOf(model.contrast(inOverOutWeights(layer), 0));
        return e && o && io ? { effect: e, overControl: o, inOverOut: io } : undefined;
      },
    };
    return comparisons;
  };

  const scenario = {
    good: 1,
    bad: 1.2,
    control: 1,
    'good+aes-core': 1.2,
    'bad-aes-core': 1,
    'good+cmac': 1,
    'bad-cmac': 1.2,
  };

  it('a 20% slower aes-core with a harmless cmac, 4% process offsets: cmac never named, over 40 seeds', () => {
    let attributed = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const a = attributeCase(['aes-core', 'cmac'], simulate(seed, scenario, 0.04), {}, 0.03)!;
      expect(a.attributed, `seed ${seed}`).not.toContain('cmac');
      expect(a.oneWay, `seed ${seed}`).not.toContain('cmac');
      if (a.attributed.includes('aes-core')) attributed++;
    }
    // The price of offsets this large with 3 processes: aes-core is not always named (it is never wrongly named).
    expect(attributed).toBeGreaterThanOrEqual(20);
  });

  it('one differing layer 6% slower, 6 processes with 2% offsets: named far more often by its two swaps together; a layer that changed nothing, never', () => {
    const slower = { good: 1, bad: 1.06, control: 1, 'good+sha1-dispatch': 1.06, 'bad-sha1-dispatch': 1 };
    const same = { good: 1, bad: 1, control: 1, 'good+sha1-dispatch': 1, 'bad-sha1-dispatch': 1 };
    let regressed = 0;
    let each = 0;
    let named = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const a = attributeCase(['sha1-dispatch'], simulate(seed, slower, 0.02, 6), {}, 0.03)!;
      const n = attributeCase(['sha1-dispatch'], simulate(1000 + seed, same, 0.02, 6), {}, 0.03)!;
      expect(n.attributed, `A/A seed ${seed}`).toEqual([]);
      if (a.total.verdict !== 'regressed') continue;
      regressed++;
      if (a.layers[0]!.explainedBy === 'each') each++;
      if (a.attributed.includes('sha1-dispatch')) named++;
    }
    // Measured: the total regressed in 74 of 200 seeds; both swaps alone named the layer in 31, the rule in 70.
    expect(each).toBeLessThan(0.5 * regressed);
    expect(named).toBeGreaterThanOrEqual(Math.ceil(0.85 * regressed));
  });

  it('two layers that slow the case down only together: neither named over 200 seeds of 6 processes', () => {
    const together = {
      good: 1,
      bad: 1.1,
      control: 1,
      'good+aes-core': 1,
      'bad-aes-core': 1,
      'good+cmac': 1,
      'bad-cmac': 1,
    };
    for (let seed = 1; seed <= 200; seed++) {
      const a = attributeCase(['aes-core', 'cmac'], simulate(seed, together, 0.02, 6), {}, 0.03)!;
      expect(a.attributed, `seed ${seed}`).toEqual([]);
    }
  });

  it('the same with 2% process offsets: aes-core and only aes-core, in every one of 40 seeds', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const a = attributeCase(['aes-core', 'cmac'], simulate(seed, scenario, 0.02), {}, 0.03)!;
      expect(a.total.verdict, `seed ${seed}`).toBe('regressed');
      expect(a.attributed, `seed ${seed}`).toEqual(['aes-core']);
    }
  });
});
