import { ERRORS } from '../error-codes.js';
import type { ErrorFactory } from '../errors.js';
import { isObject } from './merge-patch.js';

/** Paging of `GET /api/v1/comments/pending`. */
export const PENDING_PAGE = { defaultLimit: 50, maxLimit: 500 } as const;

const QUERY_FIELDS = ['limit', 'cursor'];

// A cursor is the base64url of `c1:<id of the last comment of the previous page>`: opaque to clients, versioned so
// its content can change, and short. Only the exact string this API gives is accepted.
const CURSOR_PREFIX = 'c1:';
const CURSOR_MAX_LENGTH = 64;

export function encodeCursor(lastId: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${lastId}`).toString('base64url');
}

/** The comment id a cursor continues after. */
export function decodeCursor(cursor: string): number {
  const refuse = () => ERRORS.INVALID_CURSOR('cursor', 'is not one this API gave: pass the `next` of the previous page, or no cursor to start over');
  if (cursor.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw refuse();
  const match = new RegExp(`^${CURSOR_PREFIX}([1-9]\\d{0,15})$`).exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  const id = Number(match?.[1]);
  if (!Number.isSafeInteger(id) || encodeCursor(id) !== cursor) throw refuse();
  return id;
}

function single(query: Record<string, unknown>, name: string, error: ErrorFactory<[string, string]>): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw error(name, 'must be given once');
  return value;
}

/** The page a query asks for: `limit` (1-500, default 50; empty takes the default) and `cursor` (none: the first page). */
export function parsePendingQuery(query: unknown): { afterId: number; limit: number } {
  const record = isObject(query) ? query : {};
  const unknown = Object.keys(record).filter((name) => !QUERY_FIELDS.includes(name));
  if (unknown.length > 0) {
    throw ERRORS.INVALID_INPUT('unknown query parameter(s):', `${unknown.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40))).join(', ')}; use limit and cursor`);
  }
  const limitText = single(record, 'limit', ERRORS.INVALID_LIMIT);
  if (limitText !== undefined && (!/^[1-9]\d{0,2}$/.test(limitText) || Number(limitText) > PENDING_PAGE.maxLimit)) {
    throw ERRORS.INVALID_LIMIT('limit', `must be a whole number from 1 to ${PENDING_PAGE.maxLimit}, got ${JSON.stringify(limitText.slice(0, 40))}`);
  }
  const cursor = single(record, 'cursor', ERRORS.INVALID_CURSOR);
  return {
    afterId: cursor === undefined ? 0 : decodeCursor(cursor),
    limit: limitText === undefined ? PENDING_PAGE.defaultLimit : Number(limitText),
  };
}
