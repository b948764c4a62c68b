import { AppError, ConfigError, createError, type AppErrorClass, type ErrorFactory, type FieldErrors } from './errors.js';

type Entry = readonly [message: (...args: never[]) => string, status: number, kind?: AppErrorClass];
type Catalogue<E extends Record<string, Entry>> = { readonly [K in keyof E]: ErrorFactory<Parameters<E[K][0]>> };

/** The factories of a table whose keys are the codes, so a code is written once and cannot differ from its key. */
function catalogue<E extends Record<string, Entry>>(entries: E): Catalogue<E> {
  const factories: Record<string, ErrorFactory<never[]>> = {};
  for (const [code, [message, status, kind]] of Object.entries(entries)) factories[code] = createError(code, message, status, kind ?? AppError);
  return factories as unknown as Catalogue<E>;
}

/** A value a message may not repeat (a secret): only its length is told. */
export interface Withheld {
  readonly withheldLength: number;
}

export function withheld(value: string): Withheld {
  return { withheldLength: value.length };
}

/** A refused value with what is wrong with it, when the expectation alone does not say. */
export interface Flawed {
  readonly value: string;
  readonly flaw: string;
}

type Refused = string | number | Withheld | Flawed;

/** The value a check refused, as the end of an "expected …" sentence; none when the problem is its absence. */
function got(value: Refused | undefined): string {
  if (value === undefined) return '';
  if (typeof value !== 'object') return `, got '${value}'`;
  return 'flaw' in value ? `, got '${value.value}', which ${value.flaw}` : `, got a value of ${value.withheldLength} characters`;
}

/** What a check expected of a setting or option, and what it got: `expected maxEntries to be a positive integer, got '0'`. */
const expected = (subject: string, wanted: string, value?: Refused): string => `expected ${subject} ${wanted}${got(value)}`;

/** An input field and the rule it broke, as clients of the JSON APIs read it: `title must be a string`. */
const field = (name: string, problem: string): string => `${name} ${problem}`;

/** A provider's failure, named for the provider. */
const provider = (name: string, problem: string): string => `provider ${name}: ${problem}`;

/** An operator's next step after a fault of the set-up: what went wrong, the system's code, where, what to do. */
const setUp = (problem: string, code: string, remedy: string, where?: string): string =>
  `${problem} (${code})${where === undefined ? '' : ` (${where})`}: ${remedy}`;

/** The characters a shared secret may hold, wherever one is checked. */
export const SECRET_RULE = '16 to 256 characters of letters, digits and ._~+/=-';

/**
 * Every error code sitestack raises, with its message template and HTTP status (what the error mappers answer, and how
 * the CLI words an exit). A throw site raises `ERRORS.SOME_CODE(...)` with the values only it knows; no code and no
 * sentence frame is written anywhere else. docs/errors.md describes the body every JSON API answers errors with.
 */
export const ERRORS = catalogue({
  // Configuration and start-up: a fault of this server's set-up, hence 500.
  CONFIG_INVALID: [(name: string, wanted: string, value?: string | Withheld) => `expected ${name} to be ${wanted}${got(value)}`, 500, ConfigError],
  EDGE_REFRESH_SECRET_UNSET: [
    () => 'CDN_BASE_URL is set but EDGE_REFRESH_SECRET is not: set the same EDGE_REFRESH_SECRET for the origin and `sitestack edge`',
    500,
    ConfigError,
  ],
  EDGE_CONFIG_INVALID: [expected, 500],
  NGINX_CONFIG_INVALID: [(file: string, output: string) => `nginx rejected ${file}: ${output}`, 500],
  NGINX_NOT_FOUND: [(where: string, install: string) => `nginx is not installed (${where}): install it with \`${install}\`, or set NGINX_BIN to its path`, 500],
  NGINX_START_FAILED: [(binary: string, reason: string) => `cannot start ${binary}: ${reason}`, 500],
  NGINX_EXITED: [(status: number | string) => `nginx exited with status ${status} before it was ready`, 500],
  NGINX_NOT_READY: [(timeoutMs: number) => `nginx was not ready within ${timeoutMs} ms`, 500],
  CDN_PURGE_OPTIONS_INVALID: [expected, 500],
  CDN_BASE_URL_INVALID: [(baseUrl: string) => `expected the CDN base URL to be an http(s) URL without query${got(baseUrl)}`, 500],
  SEARCH_URL_INVALID: [(wanted: string, value?: string) => `SEARCH_URL must be ${wanted}${got(value)}`, 500],
  SEARCH_OPTIONS_INVALID: [(option: string, wanted: string) => `${option} must be ${wanted}`, 500],
  CLIENT_BUILD_FAILED: [(what: string) => `esbuild produced no ${what}`, 500],
  CLIENT_BUILD_INVALID: [(dir: string) => `the client manifest in ${dir} is malformed`, 500],
  CLIENT_BUILD_MISSING: [
    (dir: string, lacking?: string) =>
      `${lacking === undefined ? `no client build in ${dir}` : `the client build in ${dir} lacks ${lacking}`}: run buildClient (sitestack front and start do)`,
    500,
  ],
  CLIENT_ENTRY_MISSING: [() => 'the renderer client entry (client.tsx or client.js) is missing beside build.js', 500],
  DESK_SCRIPT_MISSING: [() => "the desk's script (client/editor.ts or client/editor.js) is missing beside desk-script.js", 500],
  DATA_DIR_UNUSABLE: [setUp, 500],
  PORT_IN_USE: [(port: string, host: string) => `${port} on HOST=${host} is already in use: stop the process using it or set another port`, 500],
  PORT_NOT_PERMITTED: [(port: string) => `no permission to listen on ${port}: use a port above 1023 or run with the right to bind it`, 500],
  HOST_UNUSABLE: [setUp, 500],
  LISTEN_FAILED: [(port: string, host: string, code: string) => setUp(`cannot listen on ${port} on HOST=${host}`, code, 'check HOST and the port'), 500],
  SECRETS_FILE_INVALID: [(file: string, problem: string) => `${file} ${problem}: remove it to have new secrets made (then restart every layer)`, 500],
  // A worker that failed tells the primary its own one-line account, which says more than its exit code.
  WORKER_START_FAILED: [
    (worker: number, exitCode: number | string, workerAccount?: string) => workerAccount ?? `front worker ${worker} exited with code ${exitCode} before listening`,
    500,
  ],
  SCHEMA_TOO_NEW: [(database: string, version: number, known: number) => `${database} schema version ${version} is newer than this sitestack knows (${known})`, 500],
  RENDERER_OPTIONS_INVALID: [(problem: string) => `createRenderer: ${problem}`, 500],
  WRONG_PROCESS: [(what: string, where: string) => `${what} runs in the ${where} only`, 500],

  // What the error mappers answer for errors that are not AppErrors, and for unknown routes.
  // A client error fastify found (its status and code vary); the mapper answers fastify's own message with it.
  BAD_REQUEST: [(problem: string) => problem, 400],
  INTERNAL: [() => 'internal server error', 500],
  NOT_FOUND: [(what: string) => `no ${what}`, 404],

  // The command line.
  USAGE: [(problem: string, usage?: string) => (usage === undefined ? problem : `${problem}\nUsage: ${usage}`), 400],
  BENCH_UNAVAILABLE: [
    (root: string) => `the benchmarks run from a source checkout with its development dependencies (bench/ and typescript under ${root}); run 'npm ci' there`,
    400,
  ],

  // Requests and their authorisation.
  INVALID_INPUT: [field, 400],
  INVALID_QUERY: [(fields: FieldErrors) => `invalid query: ${Object.values(fields).flat().map((problem) => problem.message).join('; ')}`, 400],
  INVALID_OID: [(maxLength: number) => `oid must be 1-${maxLength} characters of a-z, 0-9 and single hyphens between them`, 400],
  INVALID_COMMENT_ID: [() => 'comment id must be a positive integer', 400],
  INVALID_SONG_ID: [() => `song id must be a positive integer without sign, exponent or leading zeros, at most ${Number.MAX_SAFE_INTEGER}`, 400],
  INVALID_LIMIT: [field, 400],
  INVALID_CURSOR: [field, 400],
  // The checks of utf8-input.ts word where in the body or form the first bad byte lies.
  INVALID_UTF8: [(problem: string) => problem, 400],
  READ_ONLY_FIELD: [(name: string, hint: string, current: string, given: string) => `${name} is read-only (${hint}): it is ${current}, got ${given}`, 409],
  UNSUPPORTED_MEDIA_TYPE: [(given: string) => `PATCH takes a JSON merge patch as application/merge-patch+json (or application/json), got ${given}`, 415],
  UNAUTHORIZED: [(what: string, token: string) => `${what} need Authorization: Bearer <${token}>`, 401],
  FORBIDDEN: [(token: string) => `wrong ${token} token`, 403],
  ADMIN_DISABLED: [() => 'admin writes are disabled: set ORIGIN_ADMIN_TOKEN', 503],
  RATE_LIMITED: [(what: string, after: string) => `too many ${what}; retry in ${after}`, 429],
  POST_NOT_FOUND: [(oid: string, toPatch = false) => `no post '${oid}'${toPatch ? ' to patch: create it with PUT' : ''}`, 404],
  COMMENT_NOT_FOUND: [(id: number) => `no comment ${id}`, 404],
  // Addresses that change and revisions (src/origin/revisions/).
  POST_RENAMED: [(oid: string, to: string) => `no post '${oid}': it was renamed to '${to}'; use that address`, 404],
  SLUG_TAKEN: [(slug: string) => `the slug '${slug}' is another post's: choose another, or rename or delete that post first`, 409],
  INVALID_REVISION: [() => 'revision number must be a positive whole number, as the revision list gives them', 400],
  REVISION_NOT_FOUND: [(oid: string, n: number) => `post '${oid}' has no revision ${n} (only the newest are kept: see its revision list)`, 404],
  // Moderation rules (src/origin/moderation/).
  RULE_NOT_FOUND: [(id: number) => `no moderation rule ${id}`, 404],
  RULE_EXISTS: [(what: string, id: number) => `a rule for ${what} exists already (rule ${id}): change that one instead`, 409],
  RULE_LIMIT: [(max: number) => `the rule list is full (${max} rules): remove a rule before adding one`, 409],
  INSIGHTS_DISABLED: [() => 'search insights are refused: set PURGE_SECRET on the origin (the fronts send their counts with it)', 503],
  // The editor's desk: its accounts (the CLI) and its forms.
  INVALID_USER: [(problem: string) => problem, 400],
  USER_EXISTS: [(name: string) => `a user '${name}' exists already: remove it first to set a new password`, 409],
  USER_NOT_FOUND: [(name: string) => `no user '${name}'`, 404],
  DESK_CROSS_SITE: [(problem: string) => `${problem}: open the desk and send it again from there`, 403],
  DESK_CSRF: [() => 'the form is out of date (its token does not match your session): reload the page and send it again', 403],
  DESK_LOGIN_REQUIRED: [() => 'log in to the desk first', 401],
  DESK_SLUG_TAKEN: [(oid: string) => `slug '${oid}' is taken by another post: choose another`, 409],
  // Image uploads (src/origin/images): what is wrong with the file, and what to do.
  IMAGE_TYPE_REFUSED: [(why: string) => `an image must be JPEG, PNG, GIF, WebP or AVIF, told by its bytes (not its name or Content-Type): ${why}`, 415],
  IMAGE_TOO_LARGE: [(maxBytes: number) => `the image is larger than the ${maxBytes} bytes allowed (IMAGE_MAX_BYTES): make it smaller first`, 413],
  IMAGE_TOO_MANY_PIXELS: [
    (width: number, height: number, maxPixels: number) => `the image is ${width}×${height} pixels, more than the ${maxPixels} allowed (IMAGE_MAX_PIXELS): scale it down first`,
    413,
  ],
  IMAGE_UNREADABLE: [(type: string, why: string) => `the ${type} image cannot be read: ${why}`, 400],
  IMAGES_BUSY: [() => 'too many images are being processed: send it again in a moment', 503],
  // The validators of page-cache/pathnames.ts and surrogate-keys.ts word the problem; the page cache spec fixes that
  // the purge route's 400 body is that text, so the message is the problem as the validator gives it.
  PURGE_PATHNAMES_INVALID: [(problem: string, which = '') => (which === '' ? problem : `purge: invalid pathname${which}: ${problem}`), 400],
  PURGE_KEYS_INVALID: [(problem: string, which = '') => (which === '' ? problem : `purge: invalid key${which}: ${problem}`), 400],
  PURGE_SECRET_UNSET: [
    (secretsFile: string) => `purge: PURGE_SECRET is not set and ${secretsFile} does not exist; the purge routes refuse every purge without it`,
    400,
  ],
  METHOD_NOT_ALLOWED: [(path: string, methods: string) => `${path} takes ${methods}`, 405],
  METRICS_TOKEN_UNSET: [() => 'metrics are disabled: set METRICS_TOKEN', 403],
  METRICS_UNAVAILABLE: [(reason: string) => `metrics could not be collected: ${reason}`, 503],
  CHECK_TIMED_OUT: [(timeoutMs: number) => `no answer within ${timeoutMs} ms`, 503],
  DATABASE_CLOSED: [(file: string) => `${file} is closed`, 503],
  ORIGIN_UNHEALTHY: [(status: number, url: string) => `${status} from ${url}`, 503],
  REDIS_UNSET: [(command: string) => `REDIS_URL is not set: ${command} reads the fleet of fronts from the Redis they share; set the same REDIS_URL as the origin and the fronts`, 500, ConfigError],
  REDIS_UNREACHABLE: [(url: string, reason: string) => `cannot reach Redis at ${url}: ${reason}`, 503],
  REDIS_NOT_READY: [(timeoutMs: number) => `Redis did not accept the connection within ${timeoutMs} ms`, 503],
  REDIS_ANSWER_INVALID: [(command: string, answer: string) => `Redis answered ${command} with ${answer}`, 502],
  METRICS_NO_ANSWER: [(timeoutMs: number) => `the cluster primary did not answer within ${timeoutMs} ms`, 503],
  METRICS_WORKER_STOPPING: [() => 'worker stopping', 503],
  // The cluster primary's own account of why it could not collect the workers' metrics.
  METRICS_PRIMARY_FAILED: [(reason = 'no metrics') => reason, 503],
  URI_TOO_LONG: [(maxBytes: number) => `the request target is longer than ${maxBytes} bytes`, 414],
  HEADERS_TOO_LARGE: [(maxBytes: number) => `the request headers are larger than ${maxBytes} bytes`, 431],
  REQUEST_TARGET_INVALID: [() => 'the request target holds a character HTTP does not allow there: percent-encode spaces and characters outside ASCII (国际 is %E5%9B%BD%E9%99%85)', 400],

  // The origin as the renderer, the content build and the purge outbox reach it.
  // What a reader is told when the origin fails them: a page's data, or a comment and, when known, why.
  ORIGIN_FAILED: [
    (attempt?: 'comment', why?: string) =>
      attempt === undefined ? 'the content origin did not answer as expected' : `The comment could not be sent${why === undefined ? '' : `: ${why}`}. Please try again later.`,
    502,
  ],
  // What the renderer logs of the same failure: the spec's `<status> <url>`, or the field an answer got wrong.
  ORIGIN_REFUSED: [(status: number, url: string, problem?: string) => `${status} ${url}${problem === undefined ? '' : ` (${problem})`}`, 502],
  ORIGIN_MALFORMED: [(url: string, problem: string) => `malformed answer from ${url}: ${problem}`, 502],
  ORIGIN_BAD_RESPONSE: [(url: string, problem: string) => `the origin answered ${url} with ${problem}`, 502],
  ORIGIN_UNAVAILABLE: [
    (url: string, failure: number | { reaching: string } | { reading: string }) =>
      typeof failure === 'number'
        ? `the origin answered ${url} with ${failure}`
        : 'reaching' in failure
          ? `cannot reach the origin at ${url}: ${failure.reaching}`
          : `the origin broke off its answer to ${url}: ${failure.reading}`,
    502,
  ],
  UPSTREAM_FAILED: [(route: string, status: number) => `${status} ${route}`, 502],

  // `sitestack proxy`: what a reader is told when the application behind it fails (the log names the upstream and why).
  PROXY_UPSTREAM_FAILED: [() => 'the site did not answer as expected', 502],
  PROXY_UPSTREAM_TIMEOUT: [() => 'the site did not answer in time', 504],
  PROXY_NO_UPSTREAM: [(failures: string) => `no upstream answers: ${failures}`, 503],

  // Any upstream's answer (origin, fronts, edge, search cluster) past its documented bound or not UTF-8.
  UPSTREAM_ANSWER_TOO_LARGE: [
    (what: string, maxBytes: number, declared?: number) =>
      declared === undefined
        ? `${what}: the answer is longer than the ${maxBytes} bytes allowed`
        : `${what}: the answer declares ${declared} bytes, more than the ${maxBytes} allowed`,
    502,
  ],
  UPSTREAM_ANSWER_NOT_UTF8: [(what: string) => `${what}: the answer is not UTF-8`, 502],

  // The edge as the purge client refreshes it.
  CDN_PURGE_FAILED: [
    (failures: readonly { url: string; reason: string }[], total: number) =>
      `CDN purge failed for ${failures.length} of ${total} URL(s): ${failures.map((failure) => `${failure.url} (${failure.reason})`).join('; ')}`,
    502,
  ],
  CDN_URL_INVALID: [() => 'not a valid URL', 400],
  CDN_URL_FOREIGN: [(origin: string) => `not on the CDN base URL's origin ${origin}`, 400],
  CDN_URL_REWRITTEN: [(change: string) => `not refreshed as written: ${change}`, 400],
  CDN_REFRESH_MISDIRECTED: [
    (status: number, host: string) =>
      `answered ${status}: the edge keeps copies for another host than ${host}; set CDN_BASE_URL to the same public URL for the origin and the edge`,
    502,
  ],
  CDN_REFRESH_REFUSED: [(status: number) => `answered ${status}`, 502],
  // The edge kept what it had, so the URL is not refreshed yet; a later purge will be.
  CDN_REFRESH_STALE: [
    (header: string, status: string) =>
      `answered from the front's stale copy (${header}: ${status}), which the edge does not store; the front is rendering the page again`,
    503,
  ],
  CDN_REFRESH_IGNORED: [
    (header: string, cacheStatus: string) =>
      `the edge answered as to an ordinary request (${header}: ${cacheStatus}), not as to a refresh: its EDGE_REFRESH_SECRET differs from the one sent`,
    502,
  ],

  // Search indices, their engines and builds.
  SEARCH_NOT_READY: [(name: string) => `search index '${name}' does not exist yet`, 503],
  SEARCH_INDEX_OUTDATED: [
    (name: string) => `search index '${name}' was built by an older version of sitestack: run a full index run (sitestack index) to replace it`,
    503,
  ],
  SEARCH_UNAVAILABLE: [(what: string) => `the search cluster ${what}; try again shortly`, 503],
  SEARCH_UNHEALTHY: [(health: string, needs?: string) => `search engine health is '${health}'${needs === undefined ? '' : `; ${needs} needs green or yellow`}`, 503],
  SEARCH_NO_LIVE_INDEX: [
    () => 'no index yet: run `sitestack content-build` and `sitestack index` (`sitestack origin` and `sitestack start` build the first one)',
    503,
  ],
  SEARCH_LIVE_OUTDATED: [(names: readonly string[]) => `index ${names.join(', ')} was built by an older version: run \`sitestack index\``, 503],
  SEARCH_UPDATE_FAILED: [(id: string, reason: string) => `search did not store ${id}: ${reason}`, 503],
  SEARCH_ENGINE_ERROR: [
    (request: string, refusal?: string) => (refusal === undefined ? `the search cluster request ${request} failed` : `the search cluster refused ${request}: ${refusal}`),
    502,
  ],
  SEARCH_INDEX_MISSING: [
    (prefix: string, wanted: 'live' | 'to update') =>
      wanted === 'live' ? `no index is live under the alias '${prefix}' yet; run sitestack index` : `no index named ${prefix}_* to update; run a full index first`,
    409,
  ],
  INDEX_NOT_FOUND: [(name: string) => `no such index: '${name}'`, 404],
  INDEX_EXISTS: [(name: string) => `an index or alias named '${name}' already exists`, 409],
  INDEX_NAMES_EXHAUSTED: [(name: string, attempts: number) => `no free index name for ${name} after ${attempts} attempts`, 409],
  INDEX_NAME_INVALID: [
    (name: string) => `invalid index or alias name '${name}': use lower-case letters, digits, '_' and '-', starting with a letter or digit`,
    400,
  ],
  INDEX_EMPTY_REFUSED: [(subject: string, place: string, aftermath: string) => `refused ${subject} 0 documents ${place}: an index with no documents is not made live; ${aftermath}; --allow-shrink accepts it`, 409],
  INDEX_SHRINK_REFUSED: [(subject: string, documents: number, place: string, aftermath: string) => `refused ${subject} ${documents} documents ${place}: fewer than half; ${aftermath}; --allow-shrink accepts it`, 409],
  ALIAS_NOT_FOUND: [(alias: string, index: string) => `alias '${alias}' does not point at '${index}'`, 404],
  ALIAS_AMBIGUOUS: [(alias: string, count: number) => `alias '${alias}' points at ${count} indices; the embedded engine searches one`, 500],
  INVALID_ALIAS: [(alias: string) => `'${alias}' is an index name and cannot be an alias`, 400],
  ALIAS_UPDATE_REFUSED: [(reason: string) => `the search cluster refused the alias update: ${reason}`, 400],
  BUILD_EMPTY: [(root: string) => `content build root '${root}' holds no index.json`, 400],
  BUILD_OUT_NOT_OURS: [(out: string) => `'${out}' is not empty and is not a content build; choose another --out`, 400],
  BUILD_ROOT_MISSING: [(root: string) => `content build root '${root}' is not a directory`, 400],
  BUILD_UNREADABLE: [(folder: string, code: string) => `cannot read the content build folder '${folder}': ${code}`, 400],
  SITE_BUILD_OPTIONS_INVALID: [expected, 400],
  SITE_NOTHING_READ: [(site: string, summary: string) => `no page of ${site} could be read (${summary}); the previous build is kept`, 502],
  READ_FAILED: [(thread: 'walking' | 'reading', reason: string) => `${thread === 'walking' ? 'the walking thread' : 'a reading thread'} failed: ${reason}`, 500],
  VOCABULARY_READ_FAILED: [
    (index: string, failure: string | { exitCode: number }) =>
      typeof failure === 'string'
        ? `reading the vocabulary of ${index}: ${failure}`
        : `the vocabulary thread of ${index} exited with ${failure.exitCode} before answering`,
    500,
  ],
  CSV_INVALID: [
    (file: string, badRows?: { count: number; listed: string }) =>
      badRows === undefined ? `'${file}' holds no rows; nothing imported` : `${badRows.count} bad row(s) in '${file}'; nothing imported:\n${badRows.listed}`,
    400,
  ],
  CSV_UNREADABLE: [(file: string, code: string) => `cannot read '${file}': ${code}`, 400],

  // Songs and their affiliate providers.
  SONG_NOT_FOUND: [(id: number) => `no song with id ${id}`, 404],
  SONGS_FILE_INVALID: [
    (file: string, badRows?: { count: number; listed: string }) =>
      badRows === undefined ? `${file} is not UTF-8 text` : `${file}: ${badRows.count} bad row(s); nothing was imported\n${badRows.listed}`,
    400,
  ],
  SONGS_FILE_TOO_LARGE: [(file: string, size: number, max: number) => `${file} is ${size} bytes; the largest catalogue read is ${max} bytes`, 400],
  SONGS_FILE_UNREADABLE: [(file: string, code: string) => `cannot read ${file}: ${code}`, 400],
  PROVIDER_NOT_FOUND: [(known: readonly string[]) => `unknown provider; known providers: ${known.join(', ')}`, 404],
  PROVIDER_UNAVAILABLE: [(name: string, reason: string) => `provider ${name} is not configured: ${reason}`, 503],
  PROVIDER_FAILED: [provider, 502],
  PROVIDER_GARBAGE: [provider, 502],
  PROVIDER_ANSWER_TOO_LARGE: [provider, 502],
  PROVIDER_TIMEOUT: [(name: string) => provider(name, 'did not answer in time'), 502],
  PROVIDER_CANCELLED: [(name: string) => provider(name, 'lookup was cancelled'), 502],
  SIGV4_DATE_MISSING: [() => 'a SigV4 request needs an x-amz-date header such as 20150830T123600Z', 500],
});
