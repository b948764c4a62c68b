import { ERRORS } from '../error-codes.js';
import type { SearchEngine } from '../search/index.js';
import type { ReadinessCheck } from './readiness.js';

/** Why searches fail on a DATA_DIR whose first index was never built, and what to do about it. */
export const NO_INDEX_REASON = ERRORS.SEARCH_NO_LIVE_INDEX().message;

/**
 * The `search` check of `/readyz`: it passes only when a search would answer, that is the engine is healthy and the
 * alias `prefix` points at an index this version reads. Engine health alone is green on a fresh DATA_DIR where every
 * search answers 503. Not critical, on the front or the origin: pages, the page cache and content writes work without
 * search, and taking every server out of its load balancer over search would turn a search outage into a whole one.
 */
export function searchReadinessCheck(engine: Pick<SearchEngine, 'health' | 'listIndices'>, prefix: string): ReadinessCheck {
  return {
    name: 'search',
    critical: false,
    async run() {
      const health = await engine.health();
      if (health !== 'green' && health !== 'yellow') throw ERRORS.SEARCH_UNHEALTHY(health);
      const live = (await engine.listIndices(`${prefix}_`)).filter((info) => info.aliases.includes(prefix));
      if (live.length === 0) throw ERRORS.SEARCH_NO_LIVE_INDEX();
      if (live.some((info) => info.outdated === true)) throw ERRORS.SEARCH_LIVE_OUTDATED(live.map((info) => info.name));
      return `${health}, index ${live.map((info) => info.name).join(', ')}`;
    },
  };
}
