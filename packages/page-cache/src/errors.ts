/**
 * The page cache's errors: a stable `code` for programs, the HTTP `status` a server answers with, and a message for a
 * person. Each code and its message are declared once, below.
 */
export class PageCacheError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(code: string, message: string, status: number) {
    super(message);
    this.name = 'PageCacheError';
    this.code = code;
    this.status = status;
  }
}

/** The JSON body of the page cache's error answers, the shape sitestack's APIs answer with too. */
export interface ErrorBody {
  error: string;
  code: string;
}

export function errorBody(error: PageCacheError): ErrorBody {
  return { error: error.message, code: error.code };
}

function factory<A extends unknown[]>(code: string, status: number, message: (...args: A) => string): (...args: A) => PageCacheError {
  return (...args: A) => new PageCacheError(code, message(...args), status);
}

const got = (value: string | number | undefined): string => (value === undefined ? '' : `, got '${value}'`);

export const ERRORS = {
  PAGE_CACHE_OPTIONS_INVALID: factory('PAGE_CACHE_OPTIONS_INVALID', 500, (option: string, wanted: string, value?: string | number) => `page cache: expected ${option} ${wanted}${got(value)}`),
  PAGE_CACHE_OPTION_MISSING: factory('PAGE_CACHE_OPTION_MISSING', 500, (setting: string, option: string, why: string) => `page cache: ${setting} needs the ${option} option: ${why}`),
  PURGE_PATHNAMES_INVALID: factory('PURGE_PATHNAMES_INVALID', 400, (problem: string) => problem),
  PURGE_KEYS_INVALID: factory('PURGE_KEYS_INVALID', 400, (problem: string) => problem),
  METHOD_NOT_ALLOWED: factory('METHOD_NOT_ALLOWED', 405, (path: string, methods: string) => `${path} takes ${methods}`),
  UNAUTHORIZED: factory('UNAUTHORIZED', 401, (what: string, token: string) => `${what} need Authorization: Bearer <${token}>`),
  FORBIDDEN: factory('FORBIDDEN', 403, (token: string) => `wrong ${token} token`),
} as const;
