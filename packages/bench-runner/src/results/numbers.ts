// The numbers a result file may hold, shared by every result schema (run,
// compare, calibration, bisect, find). Internal: not exported by the package.
import { z } from 'zod';

export const finite = z.number().refine(Number.isFinite, 'must be a finite number');
/**
 * A timing (ns per call) or the ratio of two: above 0. A corrupt file's 0 or
 * negative figure would be divided by, logged or printed as a speed.
 */
export const positive = finite.refine((v) => v > 0, 'must be a positive number');
/** A spread (sd of log figure, MAD) or a rate that is 0 for a case of no bytes: 0 or more. */
export const nonNegative = finite.refine((v) => v >= 0, 'must be 0 or more');
/** A p-value or a share: 0 to 1. */
export const probability = finite.refine((v) => v >= 0 && v <= 1, 'must be between 0 and 1');
/** The interval of a ratio or a timing: two positive ends, low first. */
export const positiveInterval = z
  .tuple([positive, positive])
  .refine(([low, high]) => low <= high, 'must be [low, high] with low <= high');
