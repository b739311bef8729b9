// `layerbench calibrate`: how trustworthy are verdicts on this machine? A/A
// runs give the false-alarm rate, A/B runs with known extra work give the
// smallest slowdown detected with >= 95% power (the minimum detectable effect).
import { calibrate } from '@layerbench/bench-runner/calibration';
import { formatJson } from '@layerbench/bench-runner/reporters';
import { writeResultFile } from '@layerbench/bench-runner/results';
import type { Calibration } from '@layerbench/bench-runner';
import { anyText, formatOptionHelp, oneOf, parseArgs, positiveInteger, positiveNumber, valueOption } from '../args.js';
import { outputPath } from '../result-files.js';
import type { Command, CommandContext } from './types.js';

const options = {
  time: valueOption('seconds', 'seconds of measurement per case, as in `run --time` (default: bench-runner\'s)', positiveNumber('seconds')),
  repeats: valueOption('n', 'A/A and A/B comparisons per effect size (default: bench-runner\'s)', positiveInteger('repeats')),
  format: valueOption('name', 'text|json', oneOf(['text', 'json'] as const)),
  out: valueOption('file', 'also write the calibration result file here', anyText),
};

export const calibrateCommand: Command = {
  name: 'calibrate',
  summary: "measure this machine's false-alarm rate and minimum detectable effect",
  usage: [
    'Usage: layerbench calibrate [options]',
    '',
    'Compares a workload with itself (A/A) and with 1%, 2%, 3%, 5% and 10% extra work',
    '(A/B), many times, at the chosen time per case. Prints how often an A/A comparison',
    'raised a false alarm and the smallest extra work detected in >= 95% of repeats.',
    'A regression smaller than that cannot be seen on this machine at this --time.',
    '',
    'Options:',
    formatOptionHelp(options),
    '',
    'Example:',
    '  layerbench calibrate --time 1 --repeats 20',
  ].join('\n'),
  run: runCalibration,
};

const percent = (share: number, digits = 1): string => `${(share * 100).toFixed(digits)}%`;

export function formatCalibrationText(calibration: Calibration): string {
  const lines = [
    `Calibration: ${calibration.timePerCase} s per case, ${calibration.repeats} repeats, threshold ${percent(calibration.threshold)}, alpha ${calibration.alpha}`,
    `  ${calibration.env.cpuModel} x ${calibration.env.cpuCount}, node ${calibration.env.node}`,
    '',
    `False-alarm rate (A/A): ${percent(calibration.falseAlarmRate)} [${percent(calibration.falseAlarmCi[0])}, ${percent(calibration.falseAlarmCi[1])}]` +
      `   A/A ratio median ${calibration.aaRatio.median.toFixed(4)} (MAD ${calibration.aaRatio.mad.toFixed(4)})`,
    '',
    '  extra work  detected  95% interval      significant  median ratio',
  ];
  for (const effect of calibration.effects) {
    lines.push(
      `  ${percent(effect.effect).padStart(10)}  ${percent(effect.detectionRate, 0).padStart(8)}  ` +
        `[${percent(effect.detectionCi[0], 0)}, ${percent(effect.detectionCi[1], 0)}]`.padEnd(16) +
        `  ${percent(effect.significantRate, 0).padStart(11)}  ${effect.medianRatio.toFixed(4).padStart(12)}`,
    );
  }
  lines.push(
    '',
    calibration.minimumDetectableEffect === null
      ? 'Minimum detectable effect: none of the effects was detected with >= 95% power (try a longer --time)'
      : `Minimum detectable effect: ${percent(calibration.minimumDetectableEffect)} (detected with >= 95% power)`,
    `Timing overhead of an empty case: ${calibration.overhead.medianNs.toFixed(1)} ns/op (MAD ${calibration.overhead.madNs.toFixed(1)})`,
  );
  return lines.join('\n');
}

async function runCalibration(args: string[], ctx: CommandContext): Promise<number> {
  const { options: chosen } = parseArgs(args, { options });
  const out = chosen.out === undefined ? undefined : outputPath(ctx, chosen.out);
  const showProgress = ctx.stderr.isTTY === true;
  const calibration = await calibrate({
    ...(chosen.time === undefined ? {} : { timePerCase: chosen.time }),
    ...(chosen.repeats === undefined ? {} : { repeats: chosen.repeats }),
    ...(showProgress ? { onProgress: (message: string) => ctx.stderr.write(`\r\u001b[K${message}`) } : {}),
  });
  if (showProgress) ctx.stderr.write('\r\u001b[K');
  if (out !== undefined) await writeResultFile(out, calibration);
  ctx.stdout.write((chosen.format === 'json' ? formatJson(calibration) : formatCalibrationText(calibration)).replace(/\n?$/, '\n'));
  return 0;
}
