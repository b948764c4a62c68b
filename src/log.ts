import { pino, type Logger, type LevelWithSilent } from 'pino';
import { PinoPretty } from 'pino-pretty';
import { stderr } from './stdio.js';

export type { Logger };

/**
 * The process logger, on stderr so stdout stays free for command output: JSON lines, or pino-pretty's coloured lines
 * when stderr is a terminal (a person reads it; a log shipper reads a pipe or a file and gets JSON). A pipe or file is
 * written without ever blocking the process (see openStdio): a log reader that stalls or goes away costs log lines,
 * never a stop request.
 */
export function createLogger(level: LevelWithSilent = 'info', name = 'sitestack', terminal = process.stderr.isTTY === true): Logger {
  if (terminal) return pino({ name, level }, PinoPretty({ destination: 2, sync: true, colorize: true, translateTime: 'SYS:HH:MM:ss.l' }));
  return pino({ name, level }, stderr());
}

/** A logger that discards everything, for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
