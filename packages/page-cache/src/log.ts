/**
 * What the page cache logs through, and how: a structural logger, so that pino's `Logger` (or any logger with these
 * methods) fits and the package needs no logging library of its own.
 */
export interface Logger {
  warn(message: string): void;
  error(fields: object, message: string): void;
}

/** The default logger: discards everything. */
export const SILENT_LOGGER: Logger = {
  warn: () => undefined,
  error: () => undefined,
};

/** Longest request URL a log line carries: a client chooses its URLs, and a flood of long ones must not fill the disk. */
const LOG_URL_MAX_CHARS = 200;

/** A request URL as log lines carry it: at most {@link LOG_URL_MAX_CHARS} characters, then how many were left off. */
export function logUrl(url: string | undefined): string | undefined {
  if (url === undefined || url.length <= LOG_URL_MAX_CHARS) return url;
  return `${url.slice(0, LOG_URL_MAX_CHARS)}…[${url.length - LOG_URL_MAX_CHARS} more characters]`;
}
