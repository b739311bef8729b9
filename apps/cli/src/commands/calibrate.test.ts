// The calibration report's wording of a minimum detectable effect.
import { describe, expect, it } from 'vitest';
import { describeMde } from './calibrate.js';

describe('describeMde', () => {
  it('gives the effect in percent up to x10, and says what a larger one means', () => {
    expect(describeMde(undefined)).toBe('none of those tested');
    expect(describeMde(0.39)).toBe('39%');
    expect(describeMde(9)).toBe('900%');
    // A calibration whose processes met the machine in different states: 1686068302% is no figure to print.
    expect(describeMde(16860683.02)).toBe('more than x10 (nothing these processes can tell apart)');
  });
});
