import { surrogateKey } from '../../surrogate-keys.js';
import { CACHED_KINDS, cachingOf, type CachedKind } from './caching.js';
import type { ContentChange } from './kinds.js';

/**
 * What a change purges: pathnames, which every front and the edge understand (and which reach entries stored before
 * fronts kept keys), and surrogate keys, which reach every entry of a page whatever its URL (a query string, a data
 * route of any build). Both name the same pages, so neither depends on the other.
 */
export interface PurgeTargets {
  pathnames: string[];
  keys: string[];
}

function targetsOf<K extends CachedKind>(kind: K, change: ContentChange, targets: PurgeTargets): void {
  const caching = cachingOf(kind);
  for (const route of caching.purgedBy(change)) {
    targets.pathnames.push(caching.path(route));
    targets.keys.push(surrogateKey(caching.key(route)));
  }
}

/** Every page and file `change` alters, as each kind's purge rule in the registry names them, in the registry's order. */
export function purgeTargets(change: ContentChange): PurgeTargets {
  const targets: PurgeTargets = { pathnames: [], keys: [] };
  for (const kind of CACHED_KINDS) targetsOf(kind, change, targets);
  return targets;
}
