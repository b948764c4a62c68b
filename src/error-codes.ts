import { AppError } from './errors.js';

/** What an error carries besides its message. */
export interface ErrorOptions {
  cause?: unknown;
  details?: unknown;
}

/** Builds the AppError of one code from the arguments of its message; `code` and `status` are readable without one. */
export interface ErrorFactory<A extends unknown[]> {
  (...args: A): AppError;
  readonly code: string;
  readonly status: number;
  /** The same error carrying a cause or details. */
  with(options: ErrorOptions, ...args: A): AppError;
}

/** An error factory, in the manner of fastify's `createError(code, message, statusCode)`. */
export function createError<A extends unknown[]>(code: string, message: (...args: A) => string, status: number): ErrorFactory<A> {
  const build = (options: ErrorOptions, args: A): AppError => new AppError(code, message(...args), status, options);
  return Object.assign((...args: A) => build({}, args), { code, status, with: (options: ErrorOptions, ...args: A) => build(options, args) });
}

type Entries = Record<string, readonly [message: (...args: never[]) => string, status: number]>;
type Catalogue<E extends Entries> = { readonly [K in keyof E]: ErrorFactory<Parameters<E[K][0]>> };

/** The factories of a table whose keys are the codes, so a code is written once and cannot differ from its key. */
function catalogue<E extends Entries>(entries: E): Catalogue<E> {
  const factories: Record<string, ErrorFactory<never[]>> = {};
  for (const [code, [message, status]] of Object.entries(entries)) factories[code] = createError(code, message, status);
  return factories as unknown as Catalogue<E>;
}

/** Errors whose message is written where they are raised, from what only that place knows. */
const told = (message: string): string => message;

/**
 * Every error code sitestack raises, with its HTTP status (what the error mappers answer, and how the CLI words an exit)
 * and the message or how it is built. Throw sites raise `ERRORS.SOME_CODE(...)`; no code is written anywhere else.
 */
export const ERRORS = catalogue({
  // Configuration and start-up: a fault of this server's set-up, hence 500.
  CONFIG_INVALID: [told, 500],
  EDGE_CONFIG_INVALID: [told, 500],
  NGINX_CONFIG_INVALID: [told, 500],
  NGINX_NOT_FOUND: [told, 500],
  NGINX_START_FAILED: [told, 500],
  PAGE_CACHE_OPTIONS_INVALID: [(message: string) => `page cache: ${message}`, 500],
  CDN_PURGE_OPTIONS_INVALID: [told, 500],
  CDN_BASE_URL_INVALID: [told, 500],
  CDN_PURGE_FAILED: [told, 502],
  SEARCH_URL_INVALID: [told, 500],
  SEARCH_OPTIONS_INVALID: [told, 500],
  CLIENT_BUILD_FAILED: [told, 500],
  CLIENT_BUILD_INVALID: [told, 500],
  CLIENT_BUILD_MISSING: [told, 500],
  CLIENT_ENTRY_MISSING: [told, 500],
  DATA_DIR_UNUSABLE: [told, 500],
  PORT_IN_USE: [told, 500],
  HOST_UNUSABLE: [told, 500],
  LISTEN_FAILED: [told, 500],
  SECRETS_FILE_INVALID: [told, 500],
  WORKER_START_FAILED: [told, 500],

  // What the error mappers answer for errors that are not AppErrors, and for unknown routes.
  BAD_REQUEST: [told, 400],
  INTERNAL: [() => 'internal server error', 500],
  NOT_FOUND: [(method: string, url: string) => `no route for ${method} ${url}`, 404],

  // The command line.
  USAGE: [told, 400],
  BENCH_UNAVAILABLE: [told, 400],

  // Requests and their authorisation.
  INVALID_INPUT: [told, 400],
  INVALID_OID: [told, 400],
  INVALID_COMMENT_ID: [told, 400],
  INVALID_SONG_ID: [told, 400],
  INVALID_LIMIT: [told, 400],
  INVALID_CURSOR: [told, 400],
  INVALID_UTF8: [told, 400],
  READ_ONLY_FIELD: [told, 409],
  UNSUPPORTED_MEDIA_TYPE: [told, 415],
  UNAUTHORIZED: [told, 401],
  FORBIDDEN: [told, 403],
  ADMIN_DISABLED: [told, 503],
  RATE_LIMITED: [told, 429],
  POST_NOT_FOUND: [told, 404],
  COMMENT_NOT_FOUND: [told, 404],
  PURGE_PATHNAMES_INVALID: [told, 400],
  PURGE_KEYS_INVALID: [told, 400],
  PURGE_SECRET_UNSET: [told, 400],
  METHOD_NOT_ALLOWED: [told, 405],
  METRICS_TOKEN_UNSET: [told, 403],
  METRICS_UNAVAILABLE: [told, 503],
  URI_TOO_LONG: [told, 414],
  HEADERS_TOO_LARGE: [told, 431],

  // The origin as the renderer and the content build reach it.
  ORIGIN_FAILED: [told, 502],
  ORIGIN_BAD_RESPONSE: [told, 502],
  ORIGIN_UNAVAILABLE: [told, 502],

  // Any upstream's answer (origin, fronts, edge, search cluster) past its documented bound or not UTF-8.
  UPSTREAM_ANSWER_TOO_LARGE: [told, 502],
  UPSTREAM_ANSWER_NOT_UTF8: [told, 502],

  // Search indices, their engines and builds.
  SEARCH_NOT_READY: [(name: string) => `search index '${name}' does not exist yet`, 503],
  SEARCH_INDEX_OUTDATED: [
    (name: string) => `search index '${name}' was built by an older version of sitestack: run a full index run (sitestack index) to replace it`,
    503,
  ],
  SEARCH_UNAVAILABLE: [told, 503],
  SEARCH_UNHEALTHY: [told, 503],
  SEARCH_UPDATE_FAILED: [told, 503],
  SEARCH_ENGINE_ERROR: [told, 502],
  SEARCH_INDEX_MISSING: [told, 409],
  INDEX_NOT_FOUND: [told, 404],
  INDEX_EXISTS: [told, 409],
  INDEX_NAME_INVALID: [
    (name: string) => `invalid index or alias name '${name}': use lower-case letters, digits, '_' and '-', starting with a letter or digit`,
    400,
  ],
  INDEX_EMPTY_REFUSED: [told, 409],
  INDEX_SHRINK_REFUSED: [told, 409],
  ALIAS_NOT_FOUND: [told, 404],
  ALIAS_AMBIGUOUS: [told, 500],
  INVALID_ALIAS: [told, 400],
  BUILD_EMPTY: [told, 400],
  BUILD_OUT_NOT_OURS: [told, 400],
  BUILD_ROOT_MISSING: [told, 400],
  BUILD_UNREADABLE: [told, 400],
  READ_FAILED: [told, 500],
  CSV_INVALID: [told, 400],
  CSV_UNREADABLE: [told, 400],

  // Songs and their affiliate providers.
  SONG_NOT_FOUND: [told, 404],
  SONGS_FILE_INVALID: [told, 400],
  SONGS_FILE_TOO_LARGE: [told, 400],
  SONGS_FILE_UNREADABLE: [told, 400],
  PROVIDER_NOT_FOUND: [told, 404],
  PROVIDER_UNAVAILABLE: [(provider: string, reason: string) => `provider ${provider} is not configured: ${reason}`, 503],
  PROVIDER_FAILED: [(provider: string, message: string) => `provider ${provider}: ${message}`, 502],
  PROVIDER_GARBAGE: [(provider: string, message: string) => `provider ${provider}: ${message}`, 502],
  PROVIDER_ANSWER_TOO_LARGE: [(provider: string, message: string) => `provider ${provider}: ${message}`, 502],
  PROVIDER_TIMEOUT: [(provider: string, message: string) => `provider ${provider}: ${message}`, 502],
  PROVIDER_CANCELLED: [(provider: string, message: string) => `provider ${provider}: ${message}`, 502],
});

export type ErrorCode = keyof typeof ERRORS;
