import { pino, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

/** The process logger: JSON lines on stderr, so stdout stays free for command output. */
export function createLogger(level: LevelWithSilent = 'info', name = 'sitestack'): Logger {
  return pino({ name, level }, pino.destination(2));
}

/** A logger that discards everything, for tests and library defaults. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
