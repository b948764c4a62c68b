import { ERRORS } from './errors.js';
import type { PurgeRequest } from './options.js';
import { validatePathnames, type PathnameLimits } from './pathnames.js';
import type { PurgeTargets } from './store.js';
import { validateKeys, type KeyLimits } from './surrogate-keys.js';

/**
 * The targets of a purge called in code, checked as the purge route checks a body: an array is a list of pathnames;
 * pathnames are required unless keys are given. Throws `PURGE_PATHNAMES_INVALID` or `PURGE_KEYS_INVALID` (400).
 */
export function purgeTargetsOf(request: readonly string[] | PurgeRequest, limits: PathnameLimits & KeyLimits): PurgeTargets {
  const { pathnames, keys } = Array.isArray(request) ? { pathnames: request as readonly string[], keys: undefined } : (request as PurgeRequest);
  if (pathnames !== undefined || keys === undefined) {
    const validation = validatePathnames(pathnames, limits);
    if (!validation.ok) throw ERRORS.PURGE_PATHNAMES_INVALID(validation.message);
  }
  if (keys !== undefined) {
    const validation = validateKeys(keys, limits);
    if (!validation.ok) throw ERRORS.PURGE_KEYS_INVALID(validation.message);
  }
  return { pathnames, keys };
}
