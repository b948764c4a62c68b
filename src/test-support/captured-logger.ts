import { Writable } from 'node:stream';
import { pino, type LevelWithSilent } from 'pino';
import type { Logger } from '../log.js';

/** One log line as pino writes it. */
export type LogLine = Record<string, unknown> & { level: number; msg: string };

/** A pino logger whose lines a test reads back, to assert on what an operator would see. */
export function capturedLogger(level: LevelWithSilent = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}
