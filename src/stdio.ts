import { closeSync, constants, fstatSync, openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/** Options of {@link StdioWriter}. */
export interface StdioOptions {
  /**
   * Bytes kept while the reader does not read; what comes on top is dropped, so a stalled reader costs bounded memory.
   * @default 4 MiB
   */
  maxBufferBytes?: number;
  /** How long a full pipe is left before the next try. @default 50 */
  retryMs?: number;
}

export const STDIO_DEFAULTS = { maxBufferBytes: 4 * 1024 * 1024, retryMs: 50 } as const;

/** The part of Node's stdio stream this file reaches into: its libuv handle, when it is a pipe or a socket. */
interface StdioHandle {
  _handle?: { setBlocking?: (blocking: boolean) => number };
}

/**
 * Asks Node to put the pipe or socket behind its stdio stream in non-blocking mode. Node makes stdio pipes blocking,
 * and every child process spawned with inherited stdio makes them blocking again (libuv does so in the child, on the
 * description both share), so this is repeated before each write.
 */
function unblock(stream: NodeJS.WriteStream): void {
  (stream as unknown as StdioHandle)._handle?.setBlocking?.(false);
}

/**
 * A description of its own, non-blocking, on the FIFO behind `fd`: no child process can make it blocking again.
 * Sockets (a parent's socketpair, the journal) cannot be reopened and stay shared.
 */
function privateFifo(fd: number): number | undefined {
  try {
    if (process.platform !== 'linux' || !fstatSync(fd).isFIFO()) return undefined;
    return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_APPEND);
  } catch {
    return undefined;
  }
}

/**
 * Writes to stdout (1) or stderr (2) without ever blocking or spinning the process: the text is queued and written
 * from the main thread with non-blocking writes as the reader takes it, up to `maxBufferBytes` waiting (more is
 * dropped). A full pipe is retried from a timer that holds nothing open; a reader gone away (EPIPE) or any other
 * write error ends the writing; at exit, what the pipe accepts at once is written and the rest dropped. Node's own
 * stdio (and pino's destinations) would block on a full pipe, or at exit wait for a reader that may never read.
 */
export class StdioWriter {
  readonly #fd: number;
  readonly #own: boolean;
  readonly #node: NodeJS.WriteStream | undefined;
  readonly #maxBufferBytes: number;
  readonly #retryMs: number;
  #queue: Buffer[] = [];
  #queued = 0;
  #scheduled = false;
  #closed = false;
  /** Bytes dropped because the reader did not keep up or went away. */
  dropped = 0;

  constructor(fd: 1 | 2, options: StdioOptions = {}) {
    this.#maxBufferBytes = options.maxBufferBytes ?? STDIO_DEFAULTS.maxBufferBytes;
    this.#retryMs = options.retryMs ?? STDIO_DEFAULTS.retryMs;
    const node = fd === 1 ? process.stdout : process.stderr;
    const own = node.isTTY ? undefined : privateFifo(fd);
    this.#fd = own ?? fd;
    this.#own = own !== undefined;
    this.#node = node.isTTY || this.#own ? undefined : node;
    // Node's own stream on the same pipe, still written by libraries, must not block either.
    if (!node.isTTY) unblock(node);
    process.once('exit', () => {
      this.#flush();
      this.#close();
    });
  }

  /** Queues `text`; it is written once this turn of the event loop ends. */
  write(text: string | Buffer): boolean {
    if (this.#closed) {
      this.dropped += text.length;
      return false;
    }
    const chunk = typeof text === 'string' ? Buffer.from(text) : text;
    if (this.#queued + chunk.length > this.#maxBufferBytes) {
      this.dropped += chunk.length;
      return false;
    }
    this.#queue.push(chunk);
    this.#queued += chunk.length;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#flush();
      });
    }
    return true;
  }

  #flush(): void {
    if (this.#closed || this.#queue.length === 0) return;
    if (this.#node !== undefined) unblock(this.#node);
    const data = this.#queue.length === 1 ? (this.#queue[0] as Buffer) : Buffer.concat(this.#queue);
    let written = 0;
    try {
      while (written < data.length) written += writeSync(this.#fd, data, written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
        this.dropped += this.#queued;
        this.#close();
        return;
      }
    }
    const rest = data.subarray(written);
    this.#queue = rest.length === 0 ? [] : [rest];
    this.#queued = rest.length;
    if (rest.length > 0 && !this.#scheduled) {
      this.#scheduled = true;
      setTimeout(() => {
        this.#scheduled = false;
        this.#flush();
      }, this.#retryMs).unref();
    }
  }

  #close(): void {
    this.#closed = true;
    this.#queue = [];
    this.#queued = 0;
    if (this.#own) closeSync(this.#fd);
  }
}

const shared: { out?: StdioWriter; err?: StdioWriter } = {};

/** The process's one stderr writer (logs and the CLI's one-line failures). */
export function stderr(): StdioWriter {
  return (shared.err ??= new StdioWriter(2));
}

/** The process's stdout writer as the stream commands write their output to. */
export function stdoutStream(): Writable {
  const out = (shared.out ??= new StdioWriter(1));
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      out.write(chunk);
      done();
    },
  });
}
