// The streams main() of layerbench-report writes to, collected for a test.

/** stdout and stderr that collect what is written, and the texts. */
export function capture() {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: {
      write: (s: string) => {
        out.stdout += s;
        return true;
      },
    } as unknown as NodeJS.WritableStream,
    stderr: {
      write: (s: string) => {
        out.stderr += s;
        return true;
      },
    } as unknown as NodeJS.WritableStream,
  };
  return { out, io };
}
