import { join } from 'node:path';
import { ERRORS } from '../error-codes.js';
import { DEFAULTS, validateKeys, validatePathnames, type PurgeRequest } from '@sitestack/page-cache';
import { PURGE_ANSWER_MAX_BYTES, readBoundedText } from '../http/index.js';
import type { Config } from '../config.js';
import { purgeCdn } from '../edge/index.js';
import type { Logger } from '../log.js';
import type { Command } from './command.js';
import { purgeOverStream, type RouteOutcome } from './purge-stream.js';
import { readSharedSecrets, SECRETS_FILE } from './secrets.js';

const TIMEOUT_MS = 10_000;

async function purgeRoute(url: string, secret: string, request: PurgeRequest): Promise<RouteOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await readBoundedText(response, PURGE_ANSWER_MAX_BYTES, url);
    if (!response.ok) return { url, ok: false, reason: `${response.status} ${text.trim().slice(0, 200)}`.trim() };
    const body = JSON.parse(text) as { purged?: unknown };
    if (!Array.isArray(body.purged)) return { url, ok: false, reason: 'answer has no purged list' };
    return { url, ok: true, purged: body.purged.map(String) };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { url, ok: false, reason: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

const USAGE = 'sitestack purge [<pathname>...] [--key <key>...]   e.g. sitestack purge / /plog/my-post, sitestack purge --key post:42';

/** Pathnames, then the words after `--key` (or each `--key=<key>`) as surrogate keys. */
function splitArgs(args: readonly string[]): { pathnames: string[]; keys: string[] } {
  const pathnames: string[] = [];
  const keys: string[] = [];
  let afterKey = false;
  for (const arg of args) {
    if (arg === '--key') afterKey = true;
    else if (arg.startsWith('--key=')) keys.push(arg.slice('--key='.length));
    else if (arg.startsWith('--')) throw ERRORS.USAGE(`purge: unknown option '${arg}'`, USAGE);
    else (afterKey ? keys : pathnames).push(arg);
  }
  if (afterKey && keys.length === 0) throw ERRORS.USAGE('purge: --key needs at least one key, e.g. --key post:42', USAGE);
  return { pathnames, keys };
}

/** The failing item of a validation message (`pathnames[2] must…`), quoted, to name it in the error. */
function which(message: string, list: readonly string[]): string {
  const index = Number(/^\w+\[(\d+)\]/.exec(message)?.[1] ?? Number.NaN);
  if (Number.isNaN(index)) return '';
  // A pathname or key of any length may be given: the message names its start, enough to find it.
  const item = list[index] ?? '';
  return ` ${JSON.stringify(item.length > 80 ? `${item.slice(0, 80)}…` : item)}`;
}

/**
 * `sitestack purge <pathname...> --key <key...>`: the origin's purge call, by hand, to every route in PURGE_URLS and,
 * with REDIS_URL, to the fleet's stream.
 */
export const purgeCommand: Command = {
  name: 'purge',
  summary: 'purge pathnames and surrogate keys from the page cache of every front in PURGE_URLS (needs PURGE_SECRET) and, with REDIS_URL, of the fleet',
  usage: USAGE,
  async run({ args, config, logger, out }) {
    const { pathnames, keys } = splitArgs(args);
    if (pathnames.length === 0 && keys.length === 0) {
      throw ERRORS.USAGE('purge: give at least one pathname or --key, e.g. sitestack purge /plog/my-post or sitestack purge --key post:42');
    }
    const request: PurgeRequest = {};
    if (pathnames.length > 0) {
      const validation = validatePathnames(pathnames, DEFAULTS);
      if (!validation.ok) throw ERRORS.PURGE_PATHNAMES_INVALID(validation.message, which(validation.message, pathnames));
      request.pathnames = pathnames;
    }
    if (keys.length > 0) {
      const validation = validateKeys(keys, DEFAULTS);
      if (!validation.ok) throw ERRORS.PURGE_KEYS_INVALID(validation.message, which(validation.message, keys));
      request.keys = keys;
    }
    // The stream needs no secret (Redis's own access control guards it): a fleet without PURGE_URLS needs none.
    const secret = config.purgeUrls.length === 0 ? '' : (config.purgeSecret ?? readSharedSecrets(config.dataDir)?.purgeSecret);
    if (secret === undefined) {
      throw ERRORS.PURGE_SECRET_UNSET(join(config.dataDir, SECRETS_FILE));
    }
    const fleet = config.fleet;
    const outcomes = await Promise.all([
      ...config.purgeUrls.map((url) => purgeRoute(url, secret, request)),
      ...(fleet === undefined ? [] : [purgeOverStream(fleet, request, config.purgeMode, logger)]),
    ]);
    for (const outcome of outcomes) {
      if (outcome.ok) {
        out.write(`${outcome.url}: purged ${outcome.purged.length} key(s)\n`);
        for (const key of outcome.purged) out.write(`  ${key}\n`);
      } else {
        logger.error({ url: outcome.url, reason: outcome.reason }, 'purge failed');
        out.write(`${outcome.url}: FAILED ${outcome.reason}\n`);
      }
    }
    const edgeOk = config.cdnBaseUrl === undefined || (await refreshEdge(config, outcomes, out, logger));
    return outcomes.every((outcome) => outcome.ok) && edgeOk ? 0 : 1;
  },
};

/**
 * With `CDN_BASE_URL` set, refreshes at the edge every page the fronts (or proxies) purged, as the origin's outbox does
 * after its purges: the edge keeps its copies by URL, and the cache keys the fronts answer are those URLs.
 */
async function refreshEdge(config: Config, outcomes: readonly RouteOutcome[], out: NodeJS.WritableStream, logger: Logger): Promise<boolean> {
  const secret = config.edgeRefreshSecret ?? readSharedSecrets(config.dataDir)?.edgeRefreshSecret;
  if (secret === undefined) throw ERRORS.EDGE_REFRESH_SECRET_UNSET();
  const urls = [...new Set(outcomes.flatMap((outcome) => (outcome.ok ? outcome.purged.filter((key) => key.startsWith('/') && !key.includes(' ')) : [])))];
  try {
    const refreshed = await purgeCdn(urls, { baseUrl: config.cdnBaseUrl!, secret });
    out.write(`${config.cdnBaseUrl}: refreshed ${refreshed.length} URL(s)\n`);
    return true;
  } catch (error) {
    logger.error({ err: error }, 'edge refresh failed');
    out.write(`${config.cdnBaseUrl}: FAILED ${(error as Error).message}\n`);
    return false;
  }
}
