// Competitor libraries wrapped with one shape per layer, for side-by-side benchmarks.
export * from './aes.js';
export * from './cmac.js';
export * from './sha1.js';
export * from './esp.js';
