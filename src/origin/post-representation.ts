import { isDeepStrictEqual } from 'node:util';
import { ERRORS } from '../error-codes.js';
import { applyMergePatch, isObject } from './merge-patch.js';
import type { PostWithSource } from './store.js';
import { parsePostInput, requireObject, type PostInput, type StoredBody } from './validation.js';

/**
 * The editor's API takes a post as `GET /api/v1/plog/<oid>` answers it, so an editor can save what it loaded: the
 * whole answer (`{ post, comments }`) or the post's fields alone, with its source as `body` (and `format`), or its
 * HTML as `body_html` as clients from before formats send it.
 */

/** The members of GET's answer. Comments are moderated through their own routes, so a write ignores `comments`. */
const WRAPPER_FIELDS = ['post', 'comments'] as const;

/** The post's fields a write cannot change, with their current values. */
export type ReadOnlyFields = Pick<PostWithSource, 'oid'>;

const READ_ONLY_HINTS: Record<keyof ReadOnlyFields, string> = {
  oid: 'it is the post\'s address; to move a post, POST { "to": "<new oid>" } to /api/v1/plog/<oid>/rename',
};

function isWrapper(record: Record<string, unknown>): boolean {
  return Object.hasOwn(record, 'post') || Object.hasOwn(record, 'comments');
}

/** The post's fields of a body in either form. */
function postFields(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw ERRORS.INVALID_INPUT('body', "must be a JSON object: the post's fields, or { post } as GET answers it");
  if (!isWrapper(body)) return body;
  const wrapper = requireObject(body, WRAPPER_FIELDS);
  if (wrapper.comments !== undefined && !isObject(wrapper.comments)) {
    throw ERRORS.INVALID_INPUT('comments', 'must be an object as GET answers it (it is ignored: comments are moderated through /api/v1/comments)');
  }
  if (!isObject(wrapper.post)) throw ERRORS.INVALID_INPUT('post', "must be a JSON object with the post's fields");
  return wrapper.post;
}

/** Refuses a read-only field that is present with another value than its current one (absent or equal: ignored). */
function checkReadOnly(fields: Record<string, unknown>, readOnly: ReadOnlyFields): void {
  for (const [field, current] of Object.entries(readOnly) as [keyof ReadOnlyFields, unknown][]) {
    if (Object.hasOwn(fields, field) && !isDeepStrictEqual(fields[field], current)) {
      const given = JSON.stringify(fields[field])?.slice(0, 120) ?? 'nothing';
      throw ERRORS.READ_ONLY_FIELD(field, READ_ONLY_HINTS[field], JSON.stringify(current), given);
    }
  }
}

function without(fields: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => !names.includes(name)));
}

/**
 * A full post for `PUT`: GET's answer or the post's fields, read-only fields ignored when unchanged. `stored`: the post
 * it replaces, if any, which tells whether `body` or `body_html` was edited when both are given.
 */
export function parsePostRepresentation(body: unknown, readOnly: ReadOnlyFields, stored?: StoredBody, now?: Date): PostInput {
  const fields = postFields(body);
  checkReadOnly(fields, readOnly);
  return parsePostInput(without(fields, Object.keys(readOnly)), stored, now);
}

/**
 * A patch that moves a scheduled post to another state and says nothing of its time leaves the time behind with the
 * state (`{"state":"draft"}` unschedules), rather than being refused for a `publish_at` it did not send.
 */
function withoutStaleTime(merged: unknown, patchFields: unknown): unknown {
  if (!isObject(merged) || !isObject(patchFields) || Object.hasOwn(patchFields, 'publish_at')) return merged;
  return merged.state === 'scheduled' ? merged : { ...merged, publish_at: null };
}

/** Removing either spelling of the body would leave the other one, stale, as the source: the body cannot be removed. */
function checkBodyKept(fields: Record<string, unknown>): void {
  if (fields.body === null || fields.body_html === null) throw ERRORS.INVALID_INPUT('body', 'is required (as body, or as body_html)');
}

/**
 * The post `PATCH` makes: an RFC 7396 merge patch applied to the post as GET shows it (to its `post` member when the
 * patch is in GET's `{ post }` form), then checked as a `PUT` of the result. `null` removes a member: an optional
 * field (summary, categories) goes back to its default, a required one is refused, a read-only one is refused.
 */
export function parsePostPatch(current: PostWithSource, patch: unknown, now?: Date): PostInput {
  if (!isObject(patch)) throw ERRORS.INVALID_INPUT('a merge patch of a post', 'must be a JSON object of the fields to change');
  const readOnly: ReadOnlyFields = { oid: current.oid };
  if (!isWrapper(patch)) {
    checkReadOnly(patch, readOnly);
    checkBodyKept(patch);
    return parsePostRepresentation(withoutStaleTime(applyMergePatch(current, patch), patch), readOnly, current, now);
  }
  if (patch.post === null) throw ERRORS.INVALID_INPUT('post', 'cannot be removed by a patch: DELETE the post instead');
  if (isObject(patch.post)) {
    checkReadOnly(patch.post, readOnly);
    checkBodyKept(patch.post);
  }
  const merged = applyMergePatch({ post: current }, patch);
  const post = isObject(merged) ? withoutStaleTime(merged.post, patch.post) : undefined;
  return parsePostRepresentation(isObject(merged) ? { ...merged, post } : merged, readOnly, current, now);
}
