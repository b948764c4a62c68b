import { ERRORS } from './error-codes.js';

/**
 * The one error base of sitestack. `code` is stable and machine-readable; `status` is the HTTP status an error
 * mapper answers with. Anything thrown that is not an AppError is a bug and maps to a 500 without its message.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;

  constructor(code: string, message: string, status = 500, options: { cause?: unknown; details?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = options.details;
  }
}

/** A configuration value that cannot be used; raised once, at start-up. */
export class ConfigError extends AppError {
  constructor(message: string) {
    super(ERRORS.CONFIG_INVALID.code, message, ERRORS.CONFIG_INVALID.status);
    this.name = 'ConfigError';
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
