import { constants, fstatSync, openSync } from 'node:fs';
import { Writable } from 'node:stream';
import { pino } from 'pino';

/** pino's SonicBoom: a queued writer on a file descriptor. */
export type StdioStream = ReturnType<typeof pino.destination>;

/** Options of {@link openStdio}. */
export interface StdioOptions {
  /**
   * Bytes kept while the reader does not read; what comes on top is dropped, so a blocked reader costs bounded memory.
   * @default 4 MiB
   */
  maxBufferBytes?: number;
}

export const STDIO_DEFAULTS = { maxBufferBytes: 4 * 1024 * 1024 } as const;

/**
 * A file description of its own on the pipe behind `fd`, non-blocking: Node makes stdio pipes blocking, and the
 * description is shared with whatever else writes there (stdout and stderr, often the same pipe), so one write to a
 * full pipe whose reader is stuck would hold the whole process, SIGTERM handlers included. Anything that is not a
 * pipe (a terminal, a file, the journal's socket) keeps `fd`: those do not stay full.
 */
function nonBlockingFd(fd: number): number {
  try {
    if (process.platform !== 'linux' || !fstatSync(fd).isFIFO()) return fd;
    return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_APPEND);
  } catch {
    // No reader left (ENXIO) or no /proc: the shared descriptor still works, EPIPE then ends the writing.
    return fd;
  }
}

/**
 * A writer on stdout (1) or stderr (2) that never blocks nor spins the process: writes are queued and written as the
 * reader takes them, up to `maxBufferBytes` (then dropped); a closed reader (EPIPE) or any other write error ends
 * the writing for good; at exit what the pipe accepts at once is written and the rest dropped, instead of waiting for
 * a reader that may never come (pino's own exit flush retries a full pipe forever).
 */
export function openStdio(fd: 1 | 2, options: StdioOptions = {}): StdioStream {
  let exiting = false;
  const stream = pino.destination({
    fd: nonBlockingFd(fd),
    sync: false,
    maxLength: options.maxBufferBytes ?? STDIO_DEFAULTS.maxBufferBytes,
    // While the process runs a full pipe is retried from a timer; once it exits, retrying would spin forever.
    retryEAGAIN: () => !exiting,
  });
  const stop = () => {
    stream.write = () => false;
    stream.flushSync = () => undefined;
  };
  stream.on('error', stop);
  // Before pino's own exit flush (registered with the stream), which would otherwise retry a full pipe forever.
  process.prependOnceListener('exit', () => {
    exiting = true;
    try {
      stream.flushSync();
    } catch {
      // EAGAIN or EPIPE: the reader is not taking more.
    }
    stop();
  });
  return stream;
}

const shared: { out?: StdioStream; err?: StdioStream } = {};

/** The process's one non-blocking stderr writer (logs and the CLI's one-line failures). */
export function stderr(): StdioStream {
  return (shared.err ??= openStdio(2));
}

/** The process's non-blocking stdout, as the stream commands write their output to. */
export function stdoutStream(): Writable {
  const out = (shared.out ??= openStdio(1));
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      out.write(chunk.toString());
      done();
    },
  });
}
