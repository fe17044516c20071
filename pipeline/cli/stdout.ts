/**
 * Writing to stdout when it may be a pipe whose reader stops early (`cdp status | head -1`):
 * backpressure, so a fast producer never queues its whole output in memory, and EPIPE, which
 * means the reader has all it wants, so the command ends quietly instead of with a stack trace.
 */

const quiet = new WeakSet<NodeJS.WritableStream>();

/** On EPIPE, exit with status 0 and no message; any other write error stays an error. */
export function exitQuietlyOnEpipe(stream: NodeJS.WriteStream = process.stdout): void {
  if (quiet.has(stream)) return;
  quiet.add(stream);
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}

/** A write that resolves once the stream can take more, so output is produced at the reader's pace. */
export function pacedWriter(stream: NodeJS.WritableStream = process.stdout): (text: string) => Promise<void> {
  return (text) =>
    stream.write(text)
      ? Promise.resolve()
      : new Promise<void>((ok, fail) => {
          const done = (err?: Error): void => {
            stream.off('drain', done);
            stream.off('error', done);
            if (err) fail(err);
            else ok();
          };
          stream.on('drain', done);
          stream.on('error', done);
        });
}
