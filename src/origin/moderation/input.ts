/** Reading the ids and actions of moderation requests, from JSON (the API) and from the desk's form. Pure. */
import { ERRORS } from '../../error-codes.js';
import { isObject } from '../merge-patch.js';
import { parsePendingQuery, PENDING_PAGE } from '../pending-page.js';
import type { BatchAction } from './store.js';

const invalid = ERRORS.INVALID_INPUT;

/** Comments one batch acts on at most: a page of the pending list at its largest. */
export const BATCH_MAX_IDS = PENDING_PAGE.maxLimit;

const ACTIONS: readonly BatchAction[] = ['approve', 'delete'];

function action(value: unknown): BatchAction {
  if (typeof value !== 'string' || !(ACTIONS as readonly string[]).includes(value)) {
    throw invalid('action', `must be approve or delete, got ${JSON.stringify(typeof value === 'string' ? value.slice(0, 40) : typeof value)}`);
  }
  return value as BatchAction;
}

function checkedIds(ids: number[]): number[] {
  if (ids.length === 0) throw invalid('ids', 'must name at least one comment');
  if (ids.length > BATCH_MAX_IDS) throw invalid('ids', `must name at most ${BATCH_MAX_IDS} comments, got ${ids.length}`);
  return [...new Set(ids)];
}

/** `{ "action": "approve" | "delete", "ids": [positive integers] }`, 1 to BATCH_MAX_IDS ids; repeats count once. */
export function parseBatchBody(body: unknown): { action: BatchAction; ids: number[] } {
  if (!isObject(body)) throw invalid('body', 'must be an object with action and ids');
  const unknown = Object.keys(body).filter((name) => name !== 'action' && name !== 'ids');
  if (unknown.length > 0) throw invalid('body', `has unknown field(s) ${unknown.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40))).join(', ')}`);
  const ids = body.ids;
  if (!Array.isArray(ids)) throw invalid('ids', 'must be an array of comment ids');
  if (ids.length > BATCH_MAX_IDS) throw invalid('ids', `must name at most ${BATCH_MAX_IDS} comments, got ${ids.length}`);
  for (const [index, id] of ids.entries()) {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) throw invalid(`ids[${index}]`, 'must be a positive whole number');
  }
  return { action: action(body.action), ids: checkedIds(ids as number[]) };
}

/** A comment's checkbox in the queue's form: one field each, since the desk's form parser keeps one value per name. */
export const COMMENT_FIELD_PREFIX = 'comment-';
/** The queue form's "select all" box and the ids of the page it stands for. */
export const ALL_FIELD = 'all';
export const SHOWN_FIELD = 'shown';

function idText(text: string, where: string, what = 'a comment id'): number {
  const id = /^[1-9]\d{0,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw invalid(where, `must be ${what} (a positive whole number)`);
  return id;
}

/** A rule's id in a path. */
export function parseRuleId(value: string): number {
  return idText(value, 'rule id', 'a rule id');
}

/**
 * The queue form: the action of the button pressed (`action`), and the comments ticked, or every comment the page
 * showed (`shown`, comma-separated) when "select all" is ticked.
 */
export function parseQueueForm(body: unknown): { action: BatchAction; ids: number[] } {
  const fields = isObject(body) ? body : {};
  const chosen = action(fields.action);
  const ids: number[] = [];
  if (fields[ALL_FIELD] === 'on') {
    const shown = typeof fields[SHOWN_FIELD] === 'string' ? fields[SHOWN_FIELD] : '';
    for (const text of shown === '' ? [] : shown.split(',').slice(0, BATCH_MAX_IDS + 1)) ids.push(idText(text, SHOWN_FIELD));
  }
  for (const name of Object.keys(fields)) {
    if (ids.length > BATCH_MAX_IDS) break;
    if (name.startsWith(COMMENT_FIELD_PREFIX)) ids.push(idText(name.slice(COMMENT_FIELD_PREFIX.length), name.slice(0, 40)));
  }
  if (ids.length === 0) throw invalid('selection', 'is empty: tick the comments to act on, or Select all');
  return { action: chosen, ids: checkedIds(ids) };
}

/**
 * A page of the queue: `flagged=1` (only comments a hold rule flagged) and the pending list's paging (`limit`,
 * `cursor`: parsePendingQuery). `ignored`: further fields the caller reads itself (the desk's status line).
 */
export function parseQueueQuery(query: unknown, ignored: readonly string[] = []): { afterId: number; limit: number; flagged: boolean } {
  const fields = isObject(query) ? query : {};
  if (fields.flagged !== undefined && fields.flagged !== '1' && fields.flagged !== '0') throw invalid('flagged', 'must be 1 or 0');
  const paging = Object.fromEntries(Object.entries(fields).filter(([name]) => name !== 'flagged' && !ignored.includes(name)));
  return { ...parsePendingQuery(paging), flagged: fields.flagged === '1' };
}
