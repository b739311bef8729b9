#!/usr/bin/env node
// Measures this machine's false-alarm rate and minimum detectable effect with
// the built engine (run `npx tsc -b` first), prints a summary and writes the
// calibration JSON. Usage:
//   node scripts/calibrate.mjs [--time 1] [--repeats 20] [--effects 0.01,0.02,0.03,0.05,0.1]
//                              [--threshold 0.02] [--alpha 0.01] [--out calibration.json]
import { calibrate } from '../dist/calibration/index.js';
import { writeResultFile } from '../dist/results/index.js';
import { formatJson } from '../dist/reporters/index.js';

const args = process.argv.slice(2);
function option(name, fallback) {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
}

const options = {
  timePerCase: Number(option('time', '1')),
  repeats: Number(option('repeats', '20')),
  effects: option('effects', '0.01,0.02,0.03,0.05,0.1').split(',').map(Number),
  threshold: Number(option('threshold', '0.02')),
  alpha: Number(option('alpha', '0.01')),
  onProgress: (message) => process.stderr.write(`${message}\n`),
};
const started = Date.now();
const result = await calibrate(options);
const out = option('out', undefined);
if (out) writeResultFile(out, result);
else process.stdout.write(formatJson(result));

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const lines = [
  `calibration: ${result.timePerCase} s per variant, ${result.repeats} repeats, threshold ±${pct(result.threshold)}, alpha ${result.alpha}, ${((Date.now() - started) / 1000).toFixed(0)} s total`,
  `machine: ${result.env.cpuModel} x${result.env.cpuCount}, node ${result.env.node}, load ${result.env.loadAvgStart[0].toFixed(2)} -> ${result.env.loadAvgEnd[0].toFixed(2)}`,
  `empty case: ${result.overhead.medianNs.toFixed(3)} ns/op (MAD ${result.overhead.madNs.toFixed(3)}, 95% CI ${result.overhead.ci.map((v) => v.toFixed(3)).join('-')})`,
  `A/A: false alarms ${pct(result.falseAlarmRate)} (95% CI ${pct(result.falseAlarmCi[0])}-${pct(result.falseAlarmCi[1])}), ratio median ${result.aaRatio.median.toFixed(4)} MAD ${result.aaRatio.mad.toFixed(4)}`,
  ...result.effects.map(
    (e) =>
      `+${pct(e.effect)}: detected ${pct(e.detectionRate)} (95% CI ${pct(e.detectionCi[0])}-${pct(e.detectionCi[1])}), significant ${pct(e.significantRate)}, median ratio ${e.medianRatio.toFixed(4)}`,
  ),
  `minimum detectable effect (>= 95% power): ${result.minimumDetectableEffect === null ? 'none of those tested' : pct(result.minimumDetectableEffect)}`,
];
process.stderr.write(`${lines.join('\n')}\n`);
