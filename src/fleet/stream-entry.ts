/**
 * One purge as a stream entry: its pathnames and its surrogate keys, each a JSON array under its own field. A front
 * reads whatever anyone wrote to the stream, so decoding checks everything the purge route checks of a request body.
 * Pure.
 */
import { DEFAULTS as PAGE_CACHE_DEFAULTS, validateKeys, validatePathnames, type PurgeRequest } from '@sitestack/page-cache';

const PATHNAMES_FIELD = 'pathnames';
const KEYS_FIELD = 'keys';

/** The largest entry a front reads (its fields' bytes together): the purge route's body bound. */
export const MAX_ENTRY_BYTES = PAGE_CACHE_DEFAULTS.maxPurgeBodyBytes;

/** The field a front's read puts in place of an entry past {@link MAX_ENTRY_BYTES}, with the entry's size. */
export const OVERSIZED_FIELD = 'oversized';

export interface PurgeBatch {
  pathnames: readonly string[];
  keys: readonly string[];
}

/** The fields of `XADD` for a purge. */
export function encodeEntry(batch: PurgeBatch): string[] {
  const fields: string[] = [];
  if (batch.pathnames.length > 0) fields.push(PATHNAMES_FIELD, JSON.stringify(batch.pathnames));
  if (batch.keys.length > 0) fields.push(KEYS_FIELD, JSON.stringify(batch.keys));
  return fields;
}

export type DecodedEntry = { ok: true; request: PurgeRequest } | { ok: false; reason: string };

/** A field's JSON list checked by the purge route's own rule; undefined when the entry has no such field. */
function checkedList(
  text: string | undefined,
  field: string,
  check: (value: unknown) => { ok: true } | { ok: false; message: string },
): { ok: true; list: string[] | undefined } | { ok: false; reason: string } {
  if (text === undefined) return { ok: true, list: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `${field} is not JSON` };
  }
  const checked = check(value);
  return checked.ok ? { ok: true, list: value as string[] } : { ok: false, reason: checked.message };
}

/** The purge an entry's fields (name, value, name, value, …) ask for, or why it is none. Unknown fields are ignored. */
export function decodeEntry(fields: readonly unknown[]): DecodedEntry {
  if (fields.length % 2 !== 0 || fields.some((field) => typeof field !== 'string')) return { ok: false, reason: 'fields are not name and value pairs' };
  const values = new Map<string, string>();
  for (let index = 0; index < fields.length; index += 2) values.set(fields[index] as string, fields[index + 1] as string);
  const oversized = values.get(OVERSIZED_FIELD);
  if (oversized !== undefined) return { ok: false, reason: `entry of ${oversized} bytes is over ${MAX_ENTRY_BYTES}` };
  const pathnamesText = values.get(PATHNAMES_FIELD);
  const keysText = values.get(KEYS_FIELD);
  if (pathnamesText === undefined && keysText === undefined) return { ok: false, reason: `neither ${PATHNAMES_FIELD} nor ${KEYS_FIELD}` };
  const pathnames = checkedList(pathnamesText, PATHNAMES_FIELD, (value) => validatePathnames(value, PAGE_CACHE_DEFAULTS));
  if (!pathnames.ok) return pathnames;
  const keys = checkedList(keysText, KEYS_FIELD, (value) => validateKeys(value, PAGE_CACHE_DEFAULTS));
  if (!keys.ok) return keys;
  const request: { pathnames?: string[]; keys?: string[] } = {};
  if (pathnames.list !== undefined) request.pathnames = pathnames.list;
  if (keys.list !== undefined) request.keys = keys.list;
  return { ok: true, request };
}
