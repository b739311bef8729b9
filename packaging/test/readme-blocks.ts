// What the consumer test reads from a README: the code blocks marked
// runnable (a fence opened with ```ts runnable), each with the ```text output
// block that may follow it, the `npm install` commands, and links that only
// work inside the monorepo.

export interface RunnableBlock {
  code: string;
  /** The expected output, when a ```text output block follows the code block. */
  output: string | undefined;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;

interface Fence {
  info: string;
  body: string;
  start: number;
  end: number;
}

function fences(text: string): Fence[] {
  return [...text.matchAll(FENCE)].map((m) => ({
    info: m[1]!.trim(),
    body: m[2]!,
    start: m.index!,
    end: m.index! + m[0].length,
  }));
}

export function runnableBlocks(text: string): RunnableBlock[] {
  const all = fences(text);
  const blocks: RunnableBlock[] = [];
  all.forEach((fence, i) => {
    if (fence.info !== 'ts runnable') return;
    const next = all[i + 1];
    const between = next === undefined ? '' : text.slice(fence.end, next.start);
    const output = next !== undefined && next.info === 'text output' && between.trim() === '' ? next.body : undefined;
    blocks.push({ code: fence.body, output, line: text.slice(0, fence.start).split('\n').length });
  });
  return blocks;
}

/** Every `npm install ...` line in the README's shell blocks. */
export function installCommands(text: string): string[] {
  return fences(text)
    .filter((fence) => fence.info === 'sh' || fence.info === 'bash' || fence.info === 'shell')
    .flatMap((fence) => fence.body.split('\n'))
    .map((line) => line.trim())
    .filter((line) => /^npm (install|i) /.test(line));
}

/** Markdown link targets that are neither absolute URLs nor anchors in the same page (they break on npmjs.com). */
export function relativeLinks(text: string): string[] {
  const outsideCode = text.replace(FENCE, '');
  return [...outsideCode.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^(https?:|mailto:|#)/.test(target));
}
