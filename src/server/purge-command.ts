import { ERRORS } from '../error-codes.js';
import { DEFAULTS, validatePathnames } from '../page-cache/index.js';
import type { Command } from './command.js';

const TIMEOUT_MS = 10_000;

type RouteOutcome = { url: string; ok: true; purged: string[] } | { url: string; ok: false; reason: string };

async function purgeRoute(url: string, secret: string, pathnames: string[]): Promise<RouteOutcome> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pathnames }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) return { url, ok: false, reason: `${response.status} ${text.trim().slice(0, 200)}`.trim() };
    const body = JSON.parse(text) as { purged?: unknown };
    if (!Array.isArray(body.purged)) return { url, ok: false, reason: 'answer has no purged list' };
    return { url, ok: true, purged: body.purged.map(String) };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return { url, ok: false, reason: `${error instanceof Error ? error.message : String(error)}${cause}` };
  }
}

/** `sitestack purge <pathname...>`: the origin's purge call, by hand, to every route in PURGE_URLS. */
export const purgeCommand: Command = {
  name: 'purge',
  summary: 'remove pathnames from the page cache of every front in PURGE_URLS (needs PURGE_SECRET)',
  usage: 'sitestack purge <pathname...>   e.g. sitestack purge / /plog/my-post',
  async run({ args, config, logger, out }) {
    if (args.length === 0) {
      throw ERRORS.USAGE('purge: give at least one pathname, e.g. sitestack purge /plog/my-post');
    }
    const validation = validatePathnames(args, DEFAULTS);
    if (!validation.ok) {
      const index = Number(/^pathnames\[(\d+)\]/.exec(validation.message)?.[1] ?? Number.NaN);
      const which = Number.isNaN(index) ? '' : ` ${JSON.stringify(args[index])}`;
      throw ERRORS.PURGE_PATHNAMES_INVALID(`purge: invalid pathname${which}: ${validation.message}`);
    }
    const secret = config.purgeSecret;
    if (secret === undefined) {
      throw ERRORS.PURGE_SECRET_UNSET('purge: PURGE_SECRET is not set; the purge routes refuse every purge without it');
    }
    const outcomes = await Promise.all(config.purgeUrls.map((url) => purgeRoute(url, secret, validation.pathnames)));
    for (const outcome of outcomes) {
      if (outcome.ok) {
        out.write(`${outcome.url}: purged ${outcome.purged.length} key(s)\n`);
        for (const key of outcome.purged) out.write(`  ${key}\n`);
      } else {
        logger.error({ url: outcome.url, reason: outcome.reason }, 'purge failed');
        out.write(`${outcome.url}: FAILED ${outcome.reason}\n`);
      }
    }
    return outcomes.every((outcome) => outcome.ok) ? 0 : 1;
  },
};
