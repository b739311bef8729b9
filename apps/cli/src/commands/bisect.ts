// Placeholder: the bisect command is being written (layer bisection issue).
import type { Command } from './types.js';

export const bisectCommand: Command = {
  name: 'bisect',
  summary: 'not yet available',
  usage: 'layerbench bisect: not yet available',
  async run(_args, ctx) {
    ctx.stderr.write('layerbench bisect: not yet available\n');
    return 2;
  },
};
