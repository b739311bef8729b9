// Shared tail of the generator scripts: write the generated file, or with
// --check fail (exit 1) when the committed file differs from what was generated.
import { readFileSync, writeFileSync } from 'node:fs';

export function writeOrCheck(path, text, howToRegenerate) {
  if (process.argv.includes('--check')) {
    if (readFileSync(path, 'utf8') !== text) {
      console.error(`${path} is stale: run ${howToRegenerate}`);
      process.exit(1);
    }
  } else {
    writeFileSync(path, text);
  }
}
