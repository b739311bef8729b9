// Placeholder: the find command is being written (layer bisection issue).
import type { Command } from './types.js';

export const findCommand: Command = {
  name: 'find',
  summary: 'not yet available',
  usage: 'layerbench find: not yet available',
  async run(_args, ctx) {
    ctx.stderr.write('layerbench find: not yet available\n');
    return 2;
  },
};
