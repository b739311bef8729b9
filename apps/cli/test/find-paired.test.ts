// `layerbench find --paired`: how a midpoint measured beside good and bad in
// the same processes is classified (nearer bad, nearer good, or cannot tell),
// on values made with a known truth: per process an offset shared by every
// commit (what pairing cancels), per visit a 1% noise, and the midpoint at a
// chosen place between good and bad.
import { normalVariate, pairedProcessModel, seededRandom } from '@layerbench/bench-runner/stats';
import { describe, expect, it } from 'vitest';
import { nearer } from '../src/commands/find.ts';

/**
 * Visit values of good, mid and bad in `processes` processes of `rounds`
 * visits: good at 1000 ns, bad at 1000 x `change`, mid at `at` of the way
 * from good to bad (log scale), each process offset by up to ±15%.
 */
function values(change: number, at: number, seed: number, processes = 6, rounds = 12) {
  const random = seededRandom(seed);
  const truth = { good: 0, mid: at * Math.log(change), bad: Math.log(change) };
  const out: Record<string, number[][]> = { good: [], mid: [], bad: [] };
  for (let p = 0; p < processes; p++) {
    const offset = Math.log(1 + 0.3 * (random() - 0.5));
    for (const [tag, level] of Object.entries(truth)) {
      const visits: number[] = [];
      for (let r = 0; r < rounds; r++) visits.push(1000 * Math.exp(offset + level + 0.01 * normalVariate(random)));
      out[tag]!.push(visits);
    }
  }
  return out;
}

const rule = { threshold: 0.03, alpha: 0.01 };

function classify(change: number, at: number, seed: number) {
  const model = pairedProcessModel(values(change, at, seed), rule);
  return nearer(model, model.compare('good', 'bad')!);
}

describe('find --paired: a midpoint against good and bad in the same processes', () => {
  it('a midpoint with the good code is nearer good, one with the bad code nearer bad (a 5% regression)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      expect(classify(1.05, 0, seed).changed, `seed ${seed}`).toBe(false);
      expect(classify(1.05, 1, seed).changed, `seed ${seed}`).toBe(true);
    }
  });

  it('an improvement: nearer bad is still the side of the change', () => {
    for (let seed = 1; seed <= 10; seed++) {
      expect(classify(0.95, 0, seed).changed).toBe(false);
      expect(classify(0.95, 1, seed).changed).toBe(true);
    }
  });

  it('a midpoint halfway (half the change in each of two commits) is not classified on a guess', () => {
    let unclear = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const answer = classify(1.05, 0.5, seed);
      if (answer.changed === undefined) {
        unclear++;
        expect(answer.text).toContain('between good and bad');
      }
    }
    // At 99% the interval of a contrast whose truth is 0 clears it about once in 100.
    expect(unclear).toBeGreaterThanOrEqual(18);
  });

  it('the text gives the midpoint against good and bad and the distance from halfway', () => {
    const answer = classify(1.1, 1, 3);
    expect(answer.text).toMatch(/^vs good x1\.\d{3} \[1\.\d{3}, 1\.\d{3}\]/);
    expect(answer.text).toMatch(/vs bad x[01]\.\d{3} \[/);
    expect(answer.text).toMatch(/nearer bad \(x1\.0\d{2} \[/);
  });
});
