import { resolve } from 'node:path';
import { ERRORS, withheld } from './error-codes.js';
import { CACHE_KEY_NAMES, DEFAULTS as PAGE_CACHE_DEFAULTS, EVICTIONS, PURGE_MODES, type CacheKeyName, type Eviction, type PurgeMode } from '@sitestack/page-cache';
import { optional, parseDisplayText, parseHttpUrl, parseList, parseLocales, parseNonNegativeInt, parseOneOf, parsePort, parsePositiveInt, parsePublicUrl, parseRateLimit, parseSecret, parseToken, parseUpstreams, read, reachableHost, type Env, type RateLimit } from './config-values.js';

export { parseDisplayText, parseHttpUrl, parseList, parseLocales, parseNonNegativeInt, parseOneOf, parsePort, parsePositiveInt, parsePublicUrl, parseRateLimit, parseSecret, parseToken, parseUpstream, parseUpstreams, reachableHost, type RateLimit } from './config-values.js';
import { LOG_REQUESTS_MODES, type LogRequestsMode } from './log-bounds.js';
import { RENDERER_DEFAULTS } from './renderer/index.js';
import { SITE_DEFAULTS, SITE_LIMITS, type SiteIdentity } from './renderer/site.js';
import { DRAIN_DEFAULTS } from './server/drain.js';
import { DEFAULT_TRUSTED_PROXIES, validProxyEntry } from './http/index.js';
import { PROXY_DEFAULTS, upstreamOrigin, validPathPrefix, type ProxyConfig } from './proxy/index.js';
import { DESK_DEFAULTS, IMAGE_DEFAULTS, ORIGIN_APP_DEFAULTS } from './origin/index.js';
import { DEFAULT_INDEX_PREFIX, SEARCH_ROUTES_DEFAULTS } from './search/index.js';
import type { SongsConfig } from './songs/index.js';
import { FLEET_DEFAULTS, parseRedisAddress, SHARED_TIER_DEFAULTS, type ResolvedFleetOptions, type ResolvedSharedTierOptions } from './fleet/index.js';

/** Everything sitestack reads from the environment, parsed and checked once at start-up. */
export interface Config {
  host: string;
  port: number;
  originPort: number;
  edgePort: number;
  /** The fronts the edge forwards to, as `http://host:port` origins. */
  edgeUpstreams: string[];
  /** The nginx executable `sitestack edge` runs: a name looked up on PATH and in the sbin directories, or a path. */
  nginxBin: string;
  dataDir: string;
  apiBase: string;
  /** How long the front waits for each origin answer, headers and whole body (`ORIGIN_TIMEOUT_MS`). @default 10000 */
  originTimeoutMs: number;
  /** Largest origin answer the front reads for a page, in bytes (`ORIGIN_MAX_ANSWER_BYTES`). @default 4194304 */
  originMaxAnswerBytes: number;
  originAdminToken: string | undefined;
  purgeSecret: string | undefined;
  /**
   * The value `secret-header` must carry for the edge to refresh a URL (`EDGE_REFRESH_SECRET`); the origin's purge
   * client sends it. Unset: shared through `DATA_DIR` like the purge secret (see docs/public.md).
   */
  edgeRefreshSecret: string | undefined;
  /**
   * The site's public base URL (`PUBLIC_URL`, `https://example.com`): absolute URLs in pages, the feed, the sitemap and
   * robots use it whatever the request says. Unset: the public base URL rule (`ALLOWED_HOSTS`, `X-Forwarded-*`).
   */
  publicUrl: string | undefined;
  purgeUrls: string[];
  /**
   * The edge's public base URL (`CDN_BASE_URL`): the origin refreshes the edge through it, and `sitestack edge` keeps
   * copies for its host only (else `PUBLIC_URL`'s). Unset: no edge refresh.
   */
  cdnBaseUrl: string | undefined;
  allowedHosts: string[];
  /** Locales the front serves pages in (`SITE_LOCALES`, `en-US,zh-CN`): each has its search page, `/<locale>/search`. */
  siteLocales: string[];
  cacheKey: CacheKeyName;
  cacheVariantCookie: string;
  cacheVariantHeader: string;
  cacheMaxEntries: number;
  cacheMaxBytes: number | undefined;
  /** Which page cache entry goes at a bound (`CACHE_EVICTION`, see PageCacheOptions.eviction). */
  cacheEviction: Eviction;
  /** Whether the page cache keeps and sends brotli and gzip encodings (`CACHE_COMPRESS`, see PageCacheOptions.compress). */
  cacheCompress: boolean;
  /** Smallest body sent compressed (`CACHE_COMPRESS_MIN_BYTES`, see PageCacheOptions.compressMinBytes). */
  cacheCompressMinBytes: number;
  /** How a purge treats the page cache entries it matches (`PURGE_MODE`, see PageCacheOptions.purgeMode). */
  purgeMode: PurgeMode;
  /** Longest a soft-purged page is still served, from its purge (`STALE_MAX_MS`, see PageCacheOptions.staleMaxMs). */
  staleMaxMs: number;
  searchUrl: string;
  searchPrefix: string;
  searchRateLimit: RateLimit;
  /** Proxies whose X-Forwarded-For names the client (addresses, CIDR subnets, `loopback`). */
  trustedProxies: string[];
  commentRateLimit: RateLimit;
  /** The editor's desk: failed logins per address and per name, and a session's idle and absolute lifetimes. */
  desk: { loginRateLimit: RateLimit; loginNameRateLimit: RateLimit; sessionLifetime: { idleMs: number; absoluteMs: number } };
  /** Image uploads: largest upload in bytes (`IMAGE_MAX_BYTES`) and most pixels it may decode to (`IMAGE_MAX_PIXELS`). */
  images: { maxBytes: number; maxPixels: number };
  /** Each front worker names itself in an `x-front-worker` answer header (diagnostics and tests of `--workers`). */
  frontWorkerHeader: boolean;
  /**
   * How long a stopping server (SIGTERM, SIGINT) lets the requests in flight finish before it closes their
   * connections (`SHUTDOWN_TIMEOUT_MS`). @default 10000
   */
  shutdownTimeoutMs: number;
  /**
   * How long a stopping server keeps answering, with `/readyz` at 503, before it drains (`DRAIN_DELAY_MS`): the time a
   * load balancer or Kubernetes needs to see it unready and stop sending it requests. @default 0
   */
  drainDelayMs: number;
  /** Bearer token of `/metrics` (`METRICS_TOKEN`); unset: the purge secret on the front, the admin token on the origin. */
  metricsToken: string | undefined;
  /** Which requests get a log line (`LOG_REQUESTS`). @default 'sampled' */
  logRequests: LogRequestsMode;
  logLevel: LogLevel;
  songs: SongsConfig;
  /** `SITE_NAME`, `SITE_DESCRIPTION`, `SITE_FOOTER`: the demo's identity when unset (SITE_DEFAULTS). */
  site: SiteIdentity;
  /** `REDIS_URL` and the fleet's settings (docs/fleet.md): purges over a Redis stream. Unset: `PURGE_URLS` only. */
  fleet: FleetConfig | undefined;
  /** `sitestack proxy`: its upstreams (`UPSTREAM_URL`), their timeouts and what its page cache passes by. */
  proxy: ProxyConfig;
}

/** The fleet's Redis (`REDIS_URL`) and its options; `secondTier` is undefined with `FLEET_SECOND_TIER=off`. */
export type FleetConfig = ResolvedFleetOptions & { redisUrl: string; secondTier: ResolvedSharedTierOptions | undefined };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `http(s)://host[:port]` and nothing more: an application `sitestack proxy` forwards to. */
export function parseProxyUpstream(name: string, value: string): string {
  const origin = upstreamOrigin(value);
  if (origin === undefined) throw ERRORS.CONFIG_INVALID(name, 'a comma-separated list of http(s)://host[:port] URLs without path or query', value);
  return origin;
}

function parsePrefixes(name: string, value: string): string[] {
  const prefixes = value === 'none' ? [] : parseList(value);
  const bad = prefixes.find((prefix) => !validPathPrefix(prefix));
  if (bad !== undefined) throw ERRORS.CONFIG_INVALID(name, "'none' or a comma-separated list of paths starting with '/'", bad);
  return prefixes;
}

function loadProxyConfig(env: Env): ProxyConfig {
  const timeout = (name: string, fallback: number) => parsePositiveInt(name, read(env, name) ?? String(fallback));
  return {
    upstreams: parseList(read(env, 'UPSTREAM_URL') ?? '').map((url) => parseProxyUpstream('UPSTREAM_URL', url)),
    connectTimeoutMs: timeout('UPSTREAM_CONNECT_TIMEOUT_MS', PROXY_DEFAULTS.connectTimeoutMs),
    firstByteTimeoutMs: timeout('UPSTREAM_FIRST_BYTE_TIMEOUT_MS', PROXY_DEFAULTS.firstByteTimeoutMs),
    idleTimeoutMs: timeout('UPSTREAM_IDLE_TIMEOUT_MS', PROXY_DEFAULTS.idleTimeoutMs),
    staleIfErrorMs: parseNonNegativeInt('STALE_IF_ERROR_MS', read(env, 'STALE_IF_ERROR_MS') ?? String(PROXY_DEFAULTS.staleIfErrorMs)),
    bypassPrefixes: parsePrefixes('PROXY_BYPASS', read(env, 'PROXY_BYPASS') ?? PROXY_DEFAULTS.bypassPrefixes.join(',')),
    dataRoutePrefix: parsePrefixes('PROXY_DATA_ROUTES', read(env, 'PROXY_DATA_ROUTES') ?? PROXY_DEFAULTS.dataRoutePrefix)[0] ?? PROXY_DEFAULTS.dataRoutePrefix,
  };
}

/** Parses a comma-separated list of proxy addresses and CIDR subnets (`loopback` = 127.0.0.0/8 and ::1); `none`: no proxy. */
export function parseTrustedProxies(name: string, value: string): string[] {
  if (value === 'none') return [];
  const entries = parseList(value);
  const bad = entries.find((entry) => !validProxyEntry(entry));
  if (bad !== undefined || entries.length === 0) {
    throw ERRORS.CONFIG_INVALID(name, "'none' or a list of IP addresses, CIDR subnets and 'loopback'", bad ?? value);
  }
  return entries;
}

function loadSiteIdentity(env: Env): SiteIdentity {
  return {
    name: parseDisplayText('SITE_NAME', read(env, 'SITE_NAME') ?? SITE_DEFAULTS.name, SITE_LIMITS.name),
    description: parseDisplayText('SITE_DESCRIPTION', read(env, 'SITE_DESCRIPTION') ?? SITE_DEFAULTS.description, SITE_LIMITS.description),
    footer: parseDisplayText('SITE_FOOTER', read(env, 'SITE_FOOTER') ?? SITE_DEFAULTS.footer, SITE_LIMITS.footer),
  };
}

function parseHostName(name: string, value: string): string {
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i.test(value)) {
    throw ERRORS.CONFIG_INVALID(name, 'a host name such as webservices.amazon.com', value);
  }
  return value.toLowerCase();
}

function loadSongsConfig(env: Env): SongsConfig {
  const accessKey = read(env, 'AMAZON_ACCESS_KEY');
  const secretKey = read(env, 'AMAZON_SECRET_KEY');
  const partnerTag = read(env, 'AMAZON_PARTNER_TAG');
  const given = [accessKey, secretKey, partnerTag].filter((value) => value !== undefined).length;
  if (given !== 0 && given !== 3) {
    throw ERRORS.CONFIG_INVALID('AMAZON_ACCESS_KEY, AMAZON_SECRET_KEY and AMAZON_PARTNER_TAG', 'set together, or none of them');
  }
  const host = parseHostName('AMAZON_PAAPI_HOST', read(env, 'AMAZON_PAAPI_HOST') ?? 'webservices.amazon.com');
  const region = read(env, 'AMAZON_REGION') ?? 'us-east-1';
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) {
    throw ERRORS.CONFIG_INVALID('AMAZON_REGION', 'an AWS region such as us-east-1', region);
  }
  return {
    itunesApiBase: parseHttpUrl('ITUNES_API_BASE', read(env, 'ITUNES_API_BASE') ?? 'https://itunes.apple.com'),
    amazon: {
      credentials:
        accessKey !== undefined && secretKey !== undefined && partnerTag !== undefined ? { accessKey, secretKey, partnerTag } : undefined,
      host,
      baseUrl: parseHttpUrl('AMAZON_PAAPI_BASE', read(env, 'AMAZON_PAAPI_BASE') ?? `https://${host}`),
      region,
      marketplace: parseHostName('AMAZON_MARKETPLACE', read(env, 'AMAZON_MARKETPLACE') ?? 'www.amazon.com'),
    },
    providerTimeoutMs: parsePositiveInt('SONG_PROVIDER_TIMEOUT_MS', read(env, 'SONG_PROVIDER_TIMEOUT_MS') ?? '5000'),
  };
}

function loadSecondTierConfig(env: Env): ResolvedSharedTierOptions | undefined {
  if (parseOneOf('FLEET_SECOND_TIER', read(env, 'FLEET_SECOND_TIER') ?? 'on', ['on', 'off']) === 'off') return undefined;
  const value = (name: string, fallback: number) => parsePositiveInt(name, read(env, name) ?? String(fallback));
  const maxBytes = value('FLEET_TIER_MAX_BYTES', SHARED_TIER_DEFAULTS.maxBytes);
  const maxCopyBytes = value('FLEET_TIER_MAX_COPY_BYTES', Math.min(SHARED_TIER_DEFAULTS.maxCopyBytes, maxBytes));
  if (maxCopyBytes > maxBytes) throw ERRORS.CONFIG_INVALID('FLEET_TIER_MAX_COPY_BYTES', `at most FLEET_TIER_MAX_BYTES (${maxBytes})`, String(maxCopyBytes));
  return {
    maxBytes,
    maxCopyBytes,
    lockMs: value('FLEET_TIER_LOCK_MS', SHARED_TIER_DEFAULTS.lockMs),
    lookupTimeoutMs: value('FLEET_TIER_LOOKUP_TIMEOUT_MS', SHARED_TIER_DEFAULTS.lookupTimeoutMs),
  };
}

function loadFleetConfig(env: Env): FleetConfig | undefined {
  const redisUrl = read(env, 'REDIS_URL');
  if (redisUrl === undefined) return undefined;
  const address = parseRedisAddress(redisUrl);
  if ('problem' in address) throw ERRORS.CONFIG_INVALID('REDIS_URL', address.problem, withheld(redisUrl));
  const prefix = read(env, 'FLEET_PREFIX') ?? FLEET_DEFAULTS.prefix;
  if (!/^[A-Za-z0-9._:-]{1,64}$/.test(prefix)) throw ERRORS.CONFIG_INVALID('FLEET_PREFIX', '1 to 64 letters, digits and ._:-', prefix);
  const ms = (name: string, fallback: number) => parsePositiveInt(name, read(env, name) ?? String(fallback));
  const heartbeatMs = ms('FLEET_HEARTBEAT_MS', FLEET_DEFAULTS.heartbeatMs);
  const memberTtlMs = ms('FLEET_MEMBER_TTL_MS', FLEET_DEFAULTS.memberTtlMs);
  if (memberTtlMs <= heartbeatMs) throw ERRORS.CONFIG_INVALID('FLEET_MEMBER_TTL_MS', `more than FLEET_HEARTBEAT_MS (${heartbeatMs})`, String(memberTtlMs));
  return {
    ...FLEET_DEFAULTS,
    redisUrl,
    prefix,
    maxLen: ms('FLEET_STREAM_MAXLEN', FLEET_DEFAULTS.maxLen),
    heartbeatMs,
    memberTtlMs,
    applyWaitMs: ms('FLEET_APPLY_WAIT_MS', FLEET_DEFAULTS.applyWaitMs),
    commandTimeoutMs: ms('REDIS_TIMEOUT_MS', FLEET_DEFAULTS.commandTimeoutMs),
    secondTier: loadSecondTierConfig(env),
  };
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const port = parsePort('PORT', read(env, 'PORT') ?? '3000');
  const originPort = parsePort('ORIGIN_PORT', read(env, 'ORIGIN_PORT') ?? '4000');
  const edgePort = parsePort('EDGE_PORT', read(env, 'EDGE_PORT') ?? '8080');
  const dataDir = resolve(cwd, read(env, 'DATA_DIR') ?? './data');
  const purgeUrlsValue = read(env, 'PURGE_URLS');
  const cdnBaseUrl = read(env, 'CDN_BASE_URL');
  const edgeUpstreams = read(env, 'EDGE_UPSTREAM');
  const cacheMaxBytes = read(env, 'CACHE_MAX_BYTES');
  const fleet = loadFleetConfig(env);
  const searchUrl = read(env, 'SEARCH_URL') ?? `sqlite:${resolve(dataDir, 'search.sqlite')}`;
  if (!searchUrl.startsWith('sqlite:')) parseHttpUrl('SEARCH_URL', searchUrl);

  return {
    host,
    port,
    originPort,
    edgePort,
    edgeUpstreams: edgeUpstreams === undefined ? [`http://${reachableHost(host)}:${port}`] : parseUpstreams('EDGE_UPSTREAM', edgeUpstreams),
    nginxBin: read(env, 'NGINX_BIN') ?? 'nginx',
    dataDir,
    apiBase: parseHttpUrl('API_BASE', read(env, 'API_BASE') ?? `http://127.0.0.1:${originPort}`),
    originTimeoutMs: parsePositiveInt('ORIGIN_TIMEOUT_MS', read(env, 'ORIGIN_TIMEOUT_MS') ?? String(RENDERER_DEFAULTS.timeoutMs)),
    originMaxAnswerBytes: parsePositiveInt('ORIGIN_MAX_ANSWER_BYTES', read(env, 'ORIGIN_MAX_ANSWER_BYTES') ?? String(RENDERER_DEFAULTS.maxOriginAnswerBytes)),
    originAdminToken: read(env, 'ORIGIN_ADMIN_TOKEN'),
    purgeSecret: read(env, 'PURGE_SECRET'),
    edgeRefreshSecret: optional(env, 'EDGE_REFRESH_SECRET', parseSecret),
    publicUrl: optional(env, 'PUBLIC_URL', parsePublicUrl),
    purgeUrls:
      purgeUrlsValue === undefined
        ? // A fleet's fronts come and go: they hear of changes on the stream, not at a fixed address.
          fleet !== undefined
          ? []
          : [`http://127.0.0.1:${port}${PAGE_CACHE_DEFAULTS.purgePath}`]
        : parseList(purgeUrlsValue).map((url) => parseHttpUrl('PURGE_URLS', url)),
    cdnBaseUrl: cdnBaseUrl === undefined ? undefined : parseHttpUrl('CDN_BASE_URL', cdnBaseUrl),
    allowedHosts: parseList(read(env, 'ALLOWED_HOSTS') ?? 'localhost,127.0.0.1').map((h) => h.toLowerCase()),
    siteLocales: parseLocales('SITE_LOCALES', read(env, 'SITE_LOCALES') ?? RENDERER_DEFAULTS.locales.join(',')),
    cacheKey: parseOneOf('CACHE_KEY', read(env, 'CACHE_KEY') ?? PAGE_CACHE_DEFAULTS.key, CACHE_KEY_NAMES),
    cacheVariantCookie: parseToken('CACHE_VARIANT_COOKIE', read(env, 'CACHE_VARIANT_COOKIE') ?? PAGE_CACHE_DEFAULTS.variantCookie),
    cacheVariantHeader: parseToken('CACHE_VARIANT_HEADER', read(env, 'CACHE_VARIANT_HEADER') ?? PAGE_CACHE_DEFAULTS.variantHeader).toLowerCase(),
    cacheMaxEntries: parsePositiveInt('CACHE_MAX_ENTRIES', read(env, 'CACHE_MAX_ENTRIES') ?? String(PAGE_CACHE_DEFAULTS.maxEntries)),
    cacheMaxBytes: cacheMaxBytes === undefined ? undefined : parsePositiveInt('CACHE_MAX_BYTES', cacheMaxBytes),
    cacheEviction: parseOneOf('CACHE_EVICTION', read(env, 'CACHE_EVICTION') ?? PAGE_CACHE_DEFAULTS.eviction, EVICTIONS),
    cacheCompress: parseOneOf('CACHE_COMPRESS', read(env, 'CACHE_COMPRESS') ?? (PAGE_CACHE_DEFAULTS.compress ? 'on' : 'off'), ['on', 'off']) === 'on',
    cacheCompressMinBytes: parsePositiveInt('CACHE_COMPRESS_MIN_BYTES', read(env, 'CACHE_COMPRESS_MIN_BYTES') ?? String(PAGE_CACHE_DEFAULTS.compressMinBytes)),
    purgeMode: parseOneOf('PURGE_MODE', read(env, 'PURGE_MODE') ?? PAGE_CACHE_DEFAULTS.purgeMode, PURGE_MODES),
    staleMaxMs: parsePositiveInt('STALE_MAX_MS', read(env, 'STALE_MAX_MS') ?? String(PAGE_CACHE_DEFAULTS.staleMaxMs)),
    searchUrl,
    searchPrefix: read(env, 'SEARCH_PREFIX') ?? DEFAULT_INDEX_PREFIX,
    searchRateLimit: optional(env, 'SEARCH_RATE_LIMIT', parseRateLimit) ?? { ...SEARCH_ROUTES_DEFAULTS.rateLimit },
    trustedProxies: parseTrustedProxies('TRUSTED_PROXIES', read(env, 'TRUSTED_PROXIES') ?? DEFAULT_TRUSTED_PROXIES.join(',')),
    commentRateLimit: optional(env, 'COMMENT_RATE_LIMIT', parseRateLimit) ?? { ...ORIGIN_APP_DEFAULTS.commentRateLimit },
    desk: {
      loginRateLimit: optional(env, 'DESK_LOGIN_RATE_LIMIT', parseRateLimit) ?? { ...DESK_DEFAULTS.loginRateLimit },
      loginNameRateLimit: optional(env, 'DESK_LOGIN_NAME_RATE_LIMIT', parseRateLimit) ?? { ...DESK_DEFAULTS.loginNameRateLimit },
      sessionLifetime: {
        idleMs: parsePositiveInt('DESK_SESSION_IDLE_MS', read(env, 'DESK_SESSION_IDLE_MS') ?? String(DESK_DEFAULTS.sessionLifetime.idleMs)),
        absoluteMs: parsePositiveInt('DESK_SESSION_MAX_MS', read(env, 'DESK_SESSION_MAX_MS') ?? String(DESK_DEFAULTS.sessionLifetime.absoluteMs)),
      },
    },
    images: {
      maxBytes: parsePositiveInt('IMAGE_MAX_BYTES', read(env, 'IMAGE_MAX_BYTES') ?? String(IMAGE_DEFAULTS.maxBytes)),
      maxPixels: parsePositiveInt('IMAGE_MAX_PIXELS', read(env, 'IMAGE_MAX_PIXELS') ?? String(IMAGE_DEFAULTS.maxPixels)),
    },
    frontWorkerHeader: parseOneOf('FRONT_WORKER_HEADER', read(env, 'FRONT_WORKER_HEADER') ?? 'off', ['on', 'off']) === 'on',
    shutdownTimeoutMs: parsePositiveInt('SHUTDOWN_TIMEOUT_MS', read(env, 'SHUTDOWN_TIMEOUT_MS') ?? String(DRAIN_DEFAULTS.timeoutMs)),
    drainDelayMs: parseNonNegativeInt('DRAIN_DELAY_MS', read(env, 'DRAIN_DELAY_MS') ?? '0'),
    metricsToken: read(env, 'METRICS_TOKEN'),
    logRequests: parseOneOf('LOG_REQUESTS', read(env, 'LOG_REQUESTS') ?? 'sampled', LOG_REQUESTS_MODES),
    logLevel: parseOneOf('LOG_LEVEL', read(env, 'LOG_LEVEL') ?? 'info', LOG_LEVELS),
    songs: loadSongsConfig(env),
    site: loadSiteIdentity(env),
    fleet,
    proxy: loadProxyConfig(env),
  };
}
