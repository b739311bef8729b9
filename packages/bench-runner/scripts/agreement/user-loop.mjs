// The referee's clock: times a program's own loop the way a user would, in
// its own process, with nothing of bench-runner in it. `batch(n)` is the
// program's loop (n calls of the library function, written inline by the
// caller); it is warmed for WARM_SECONDS (long enough for every V8 tier on
// Node 16-24, even on a busy machine), then timed in batches of about 0.2 ms
// for MEASURE_SECONDS. Prints one JSON line: the case id, runtime, median and
// 10th/90th percentiles of ns per call.
const WARM_SECONDS = Number(process.env.REFEREE_WARM ?? 2);
const MEASURE_SECONDS = Number(process.env.REFEREE_TIME ?? 2);

export function report(id, batch) {
  let n = 1;
  const warmEnd = performance.now() + WARM_SECONDS * 1000;
  let perCall = Infinity;
  while (performance.now() < warmEnd) {
    const t0 = performance.now();
    batch(n);
    const ms = performance.now() - t0;
    if (ms < 0.2) n *= 2;
    else perCall = Math.min(perCall, ms / n);
  }
  n = Math.max(1, Math.round(0.2 / perCall));
  const samples = [];
  const end = performance.now() + MEASURE_SECONDS * 1000;
  while (performance.now() < end) {
    const t0 = performance.now();
    batch(n);
    samples.push(((performance.now() - t0) * 1e6) / n);
  }
  samples.sort((a, b) => a - b);
  const q = (p) => samples[Math.floor(p * (samples.length - 1))];
  console.log(
    JSON.stringify({ id, node: process.version, median: q(0.5), p10: q(0.1), p90: q(0.9), samples: samples.length }),
  );
}
