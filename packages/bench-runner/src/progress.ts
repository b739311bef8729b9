// Progress of a run on a terminal: "case i of n, about T left" on one
// rewritten line of stderr. Silent unless the stream is a TTY (or one is
// passed explicitly) and the run is not quiet.
import type { ProgressStream, RunOptions } from './types.js';

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(Math.ceil(seconds - minutes * 60)).padStart(2, '0')}s`;
}

export class Progress {
  private readonly stream: ProgressStream | undefined;
  private readonly started = Date.now();
  private plannedDone = 0;
  private wrote = false;

  constructor(
    options: Pick<RunOptions, 'quiet' | 'progress'>,
    private readonly plannedSeconds: readonly number[],
  ) {
    if (options.quiet) this.stream = undefined;
    else if (options.progress) this.stream = options.progress;
    else this.stream = process.stderr.isTTY ? process.stderr : undefined;
  }

  /** Estimated seconds left: planned time left, scaled by how far reality has run over plan so far. */
  secondsLeft(index: number): number {
    let planned = 0;
    for (let i = index; i < this.plannedSeconds.length; i++) planned += this.plannedSeconds[i]!;
    const elapsed = (Date.now() - this.started) / 1000;
    const scale = this.plannedDone > 0 ? Math.max(1, elapsed / this.plannedDone) : 1.3;
    return planned * scale;
  }

  caseStarting(index: number, id: string): void {
    if (!this.stream) return;
    const total = this.plannedSeconds.length;
    const line = `[${index + 1}/${total}] ${id}  ~${formatDuration(this.secondsLeft(index))} left`;
    this.stream.write(`\r\x1b[K${line}`);
    this.wrote = true;
  }

  caseDone(index: number): void {
    this.plannedDone += this.plannedSeconds[index] ?? 0;
  }

  finish(): void {
    if (this.stream && this.wrote) this.stream.write('\r\x1b[K');
  }
}
