import { ERRORS } from '../../error-codes.js';
import { isObject } from '../merge-patch.js';
import type { PurgeTargets } from '../policy.js';
import { OID_MAX_LENGTH, OID_PATTERN, requireObject } from '../validation.js';

/** Paging of `GET /api/v1/plog/<oid>/revisions`. */
export const REVISION_PAGE = { defaultLimit: 20, maxLimit: 100 } as const;

const SLUG_RULE = `1-${OID_MAX_LENGTH} characters of a-z, 0-9 and single hyphens between them`;

/**
 * The slug nearest to what someone typed, for the hint of a refused one: accents dropped, lower case, every run of
 * other characters one hyphen. Empty when nothing of it is left.
 */
export function suggestSlug(typed: string): string {
  const slug = typed
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, OID_MAX_LENGTH).replace(/-+$/, '');
}

/** The slug of a rename's `to`, by the oid rule of every post address (validation.ts OID_PATTERN), or a 400 with a hint. */
export function parseSlug(value: unknown, field = 'to'): string {
  if (typeof value !== 'string') throw ERRORS.INVALID_INPUT(field, `must be a string: the post's new slug, ${SLUG_RULE}`);
  if (value.length > 0 && value.length <= OID_MAX_LENGTH && OID_PATTERN.test(value)) return value;
  const suggestion = suggestSlug(value.slice(0, 4 * OID_MAX_LENGTH));
  const hint = suggestion === '' || suggestion === value ? '' : ` (such as ${JSON.stringify(suggestion)})`;
  throw ERRORS.INVALID_INPUT(field, `must be ${SLUG_RULE}${hint}`);
}

/** The body of `POST /api/v1/plog/<oid>/rename`: `{ "to": "<slug>" }`. */
export function parseRenameBody(body: unknown): string {
  return parseSlug(requireObject(body, ['to']).to);
}

/** A revision number in a path: a positive whole number, as the list gives them. */
export function parseRevisionNumber(value: unknown): number {
  const n = typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw ERRORS.INVALID_REVISION();
  return n;
}

/** The list's query: `limit` (1-100, default 20) and `before` (the `next` of the previous page; none: the newest). */
export function parseRevisionQuery(query: unknown): { before: number; limit: number } {
  const record = isObject(query) ? query : {};
  const unknown = Object.keys(record).filter((name) => name !== 'limit' && name !== 'before');
  if (unknown.length > 0) {
    throw ERRORS.INVALID_INPUT('unknown query parameter(s):', `${unknown.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40))).join(', ')}; use limit and before`);
  }
  const { limit, before } = record;
  if (limit !== undefined && limit !== '' && (typeof limit !== 'string' || !/^[1-9]\d{0,2}$/.test(limit) || Number(limit) > REVISION_PAGE.maxLimit)) {
    throw ERRORS.INVALID_LIMIT('limit', `must be a whole number from 1 to ${REVISION_PAGE.maxLimit}, given once`);
  }
  if (before !== undefined && before !== '' && (typeof before !== 'string' || !/^[1-9]\d{0,15}$/.test(before) || !Number.isSafeInteger(Number(before)))) {
    throw ERRORS.INVALID_CURSOR('before', 'must be a revision number (the `next` of the previous page), given once');
  }
  return {
    before: typeof before === 'string' && before !== '' ? Number(before) : Number.MAX_SAFE_INTEGER,
    limit: typeof limit === 'string' && limit !== '' ? Number(limit) : REVISION_PAGE.defaultLimit,
  };
}

/** One purge of every page the given targets name, each named once, in the order first met. */
export function mergePurgeTargets(all: readonly PurgeTargets[]): PurgeTargets {
  return {
    pathnames: [...new Set(all.flatMap((targets) => targets.pathnames))],
    keys: [...new Set(all.flatMap((targets) => targets.keys))],
  };
}
