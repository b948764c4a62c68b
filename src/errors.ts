import { PageCacheError } from '@sitestack/page-cache';

/** What an error carries besides its message. */
export interface ErrorOptions {
  cause?: unknown;
  details?: unknown;
  /** The problems of each invalid input field; an error mapper answers them as the body's `errors`. */
  fields?: FieldErrors;
}

/** One problem of one input field: `code` says which rule it broke, `message` says it to a person. */
export interface FieldError {
  message: string;
  code: string;
}

export type FieldErrors = Record<string, FieldError[]>;

/**
 * The one error base of sitestack. `code` is stable and machine-readable; `status` is the HTTP status an error
 * mapper answers with. Anything thrown that is not an AppError is a bug and maps to a 500 without its message.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: unknown;
  readonly fields: FieldErrors | undefined;

  constructor(code: string, message: string, status = 500, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = status;
    this.details = options.details;
    this.fields = options.fields;
  }
}

/** A configuration value that cannot be used; raised once, at start-up. The catalogue's CONFIG_* entries build it. */
export class ConfigError extends AppError {
  constructor(code: string, message: string, status: number, options: ErrorOptions = {}) {
    super(code, message, status, options);
    this.name = 'ConfigError';
  }
}

/**
 * Whether an error is one of the catalogue's, to be answered with its status and message. The page cache package
 * raises errors of its own class, with the same `code` and `status` (and no `details` or `fields`): they count too.
 */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError || error instanceof PageCacheError;
}

/** The class an error factory builds: AppError or a subclass that callers tell apart with `instanceof`. */
export type AppErrorClass = new (code: string, message: string, status: number, options?: ErrorOptions) => AppError;

/** Builds the AppError of one code from the arguments of its message; `code` and `status` are readable without one. */
export interface ErrorFactory<A extends unknown[]> {
  (...args: A): AppError;
  readonly code: string;
  readonly status: number;
  /** The same error carrying a cause, details or field errors. */
  with(options: ErrorOptions, ...args: A): AppError;
}

/** An error factory, in the manner of fastify's `createError(code, message, statusCode)`. */
export function createError<A extends unknown[]>(
  code: string,
  message: (...args: A) => string,
  status: number,
  Kind: AppErrorClass = AppError,
): ErrorFactory<A> {
  const build = (options: ErrorOptions, args: A): AppError => new Kind(code, message(...args), status, options);
  return Object.assign((...args: A) => build({}, args), { code, status, with: (options: ErrorOptions, ...args: A) => build(options, args) });
}

/**
 * The JSON body of every error answer of sitestack's JSON APIs: `error` for a person, `code` for a program, and
 * `errors` (each invalid field with all of its problems) when the request's fields were checked.
 */
export interface ErrorBody {
  error: string;
  code: string;
  errors?: FieldErrors;
}

export function errorBody(error: AppError): ErrorBody {
  return error.fields === undefined ? { error: error.message, code: error.code } : { error: error.message, code: error.code, errors: error.fields };
}
