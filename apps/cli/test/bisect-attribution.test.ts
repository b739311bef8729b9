// Attribution logic on synthetic samples: which layer explains a change, its
// share, and the interaction notes. The comparer here is a deterministic
// stand-in (median ratio, +-2% interval) so the logic is tested, not the statistics.
import { describe, expect, it } from 'vitest';
import { attributeCase, type CompareSamples } from '../src/bisect/attribution.ts';

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const compare: CompareSamples = (base, head) => {
  const ratio = med(head) / med(base);
  const ci: [number, number] = [ratio * 0.98, ratio * 1.02];
  const verdict = ci[0] > 1.03 ? 'regressed' : ci[1] < 1 / 1.03 ? 'improved' : ci[0] <= 1 && ci[1] >= 1 ? 'unchanged' : 'inconclusive';
  return { ratio, ci, pValue: verdict === 'unchanged' ? 0.5 : 0.001, verdict };
};
const around = (v: number) => [v * 0.99, v, v * 1.01, v, v * 1.005];

describe('attributeCase', () => {
  it('names the one layer whose swap reproduces a 5x slowdown, with its whole share', () => {
    const samples = {
      good: around(100),
      bad: around(500),
      'good+sha1-dispatch': around(500),
      'bad-sha1-dispatch': around(100),
      'good+aes-core': around(100),
      'bad-aes-core': around(500),
    };
    const a = attributeCase('sha1/64', ['sha1-dispatch', 'aes-core'], { samples, problems: {} }, compare, 0.03);
    expect(a.status).toBe('ok');
    expect(a.total?.verdict).toBe('regressed');
    expect(a.total?.ratio).toBeCloseTo(5, 5);
    expect(a.attributed).toEqual(['sha1-dispatch']);
    const sha1 = a.layers.find((l) => l.layer === 'sha1-dispatch')!;
    expect(sha1.explains).toBe(true);
    expect(sha1.share).toBeCloseTo(1, 5);
    expect(a.layers.find((l) => l.layer === 'aes-core')!.explains).toBe(false);
    expect(a.interaction).toBeUndefined();
  });

  it('splits a change between two layers and says nothing about interaction when the parts multiply up', () => {
    const samples = {
      good: around(100),
      bad: around(200),
      'good+cmac': around(125),
      'bad-cmac': around(160),
      'good+aes-core': around(160),
      'bad-aes-core': around(125),
    };
    const a = attributeCase('cmac/48', ['cmac', 'aes-core'], { samples, problems: {} }, compare, 0.03);
    expect(a.attributed).toEqual(['aes-core', 'cmac']);
    expect(a.layers.find((l) => l.layer === 'aes-core')!.share! + a.layers.find((l) => l.layer === 'cmac')!.share!).toBeCloseTo(1, 2);
    expect(a.interaction).toBeUndefined();
  });

  it('notes an interaction when only the two layers together are slow', () => {
    const samples = {
      good: around(100),
      bad: around(300),
      'good+cmac': around(100),
      'bad-cmac': around(100),
      'good+aes-core': around(100),
      'bad-aes-core': around(100),
    };
    const a = attributeCase('cmac/48', ['cmac', 'aes-core'], { samples, problems: {} }, compare, 0.03);
    expect(a.total?.verdict).toBe('regressed');
    expect(a.attributed).toEqual(['cmac', 'aes-core']);
    expect(a.interaction).toMatch(/the parts do not add up: one layer at a time they give x1\.000, the whole change is x3\.000/);
    expect(a.interaction).toMatch(/cmac depends on the other layers/);
  });

  it('attributes nothing when nothing changed', () => {
    const samples = { good: around(100), bad: around(100), 'good+esp': around(100), 'bad-esp': around(100) };
    const a = attributeCase('esp/1400', ['esp'], { samples, problems: {} }, compare, 0.03);
    expect(a.total?.verdict).toBe('unchanged');
    expect(a.attributed).toEqual([]);
    expect(a.interaction).toBeUndefined();
  });

  it('reports a mix that cannot run and still attributes with the other variants', () => {
    const samples = { good: around(100), bad: around(400), 'good+esp': around(400) };
    const problems = { 'bad-esp': 'this mix cannot run: esp throws at import: TypeError: x is not a function' };
    const a = attributeCase('esp/1400', ['esp'], { samples, problems }, compare, 0.03);
    expect(a.attributed).toEqual(['esp']);
    expect(a.layers[0]!.swapOut).toBeUndefined();
    expect(a.layers[0]!.problem).toMatch(/bad-esp: this mix cannot run: esp throws at import/);
  });

  it('fails the case plainly when the all-good stack has no samples', () => {
    const a = attributeCase('x', ['esp'], { samples: { bad: around(1) }, problems: { good: 'this mix has no such case' } }, compare, 0.03);
    expect(a.status).toBe('failed');
    expect(a.problem).toBe('the all-good stack has no samples: this mix has no such case');
  });
});
