import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// The report looks up the calibration stored for its runs' machine (as `layerbench compare` does): no test reads
// this machine's store, only an empty one of its own unless it names another.
export default mergeConfig(sharedConfig, {
  test: { env: { LAYERBENCH_CALIBRATION_DIR: mkdtempSync(join(tmpdir(), 'report-no-calibration-')) } },
});
