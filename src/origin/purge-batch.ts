/** What one delivery to a front's purge route carries, and what the front's answer reports purged. No I/O. */
import { DEFAULTS as PAGE_CACHE_DEFAULTS } from '@sitestack/page-cache';
import type { DueJob } from './outbox-statements.js';

/** What a front's purge route takes in one request: the outbox sends no more. */
export const PURGE_REQUEST_LIMITS = { maxPathnames: PAGE_CACHE_DEFAULTS.maxPathnames, maxKeys: PAGE_CACHE_DEFAULTS.maxKeys } as const;

/** What one delivery sends: the jobs it confirms and their pathnames and keys, each once. */
export interface Batch {
  jobs: DueJob[];
  pathnames: string[];
  keys: string[];
}

/** The due jobs, oldest first, for as long as their pathnames and their keys each stay within a purge request's bound. */
export function batchOf(jobs: readonly DueJob[]): Batch {
  const pathnames = new Set<string>();
  const keys = new Set<string>();
  const taken: DueJob[] = [];
  for (const job of jobs) {
    const nextPathnames = JSON.parse(job.pathnames) as string[];
    const nextKeys = JSON.parse(job.keys) as string[];
    const tooMany = new Set([...pathnames, ...nextPathnames]).size > PURGE_REQUEST_LIMITS.maxPathnames || new Set([...keys, ...nextKeys]).size > PURGE_REQUEST_LIMITS.maxKeys;
    if (taken.length > 0 && tooMany) break;
    for (const pathname of nextPathnames) pathnames.add(pathname);
    for (const key of nextKeys) keys.add(key);
    taken.push(job);
  }
  return { jobs: taken, pathnames: [...pathnames], keys: [...keys] };
}

/**
 * The cache keys a front's answer names as purged (`{ "purged": [...] }`); none for an answer of another shape, such as
 * a front's from before it reported them: the delivery still succeeded.
 */
export function purgedList(answer: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(answer);
  } catch {
    return [];
  }
  const purged = typeof body === 'object' && body !== null ? (body as { purged?: unknown }).purged : undefined;
  return Array.isArray(purged) ? purged.filter((key): key is string => typeof key === 'string') : [];
}
