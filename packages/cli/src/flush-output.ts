// Waiting until what was written to a stream is with the OS. On Linux, process.stdout and
// process.stderr are asynchronous when they are pipes: what the pipe does not take at once is
// queued in this process's memory, and process.exit() or a fatal signal drops it.
/// <reference types="node" preserve="true" />
import type { Writable } from 'node:stream';

/**
 * Settles once everything written to `stream` so far was handed to the OS, or it failed. A reader
 * that is gone (an editor that quit: `EPIPE`) fails the write with an `'error'` event, which would
 * crash the process with a stack trace on its way out; here it only settles the wait.
 */
export function flushed(stream: Writable): Promise<void> {
  if (stream.destroyed || stream.writableFinished) return Promise.resolve();
  return new Promise((resolve) => {
    stream.on('error', () => resolve());
    if (stream.writableEnded) {
      stream.once('finish', resolve).once('close', resolve);
      return;
    }
    // Writes complete in order: an empty one completes once all those queued before it did.
    stream.write('', () => resolve());
  });
}

/** Settles once this process's stdout and stderr are flushed. */
export async function flushStdio(): Promise<void> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
}
