import { ERRORS } from '../error-codes.js';

/** Nesting a patch may have; documents of the origin are two levels deep, so only a hostile patch goes further. */
export const MERGE_PATCH_MAX_DEPTH = 32;

/** Whether a parsed JSON value is an object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets a member as an own property, so a key such as `__proto__` is data and never changes the object's prototype. */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * RFC 7396 JSON Merge Patch: a patch that is not an object replaces the target; an object patch sets each of its
 * members in the target, recursively for object members, and a member whose value is `null` removes that member.
 * Arrays are replaced whole. Neither argument is modified. Pure.
 *
 * @throws INVALID_INPUT when the patch nests objects deeper than `maxDepth` (a guard against exhausting the stack).
 */
export function applyMergePatch(target: unknown, patch: unknown, maxDepth = MERGE_PATCH_MAX_DEPTH): unknown {
  if (!isObject(patch)) return patch;
  if (maxDepth <= 0) throw ERRORS.INVALID_INPUT('merge patch', `nests objects more than ${MERGE_PATCH_MAX_DEPTH} levels deep`);
  const result: Record<string, unknown> = {};
  if (isObject(target)) for (const [key, value] of Object.entries(target)) define(result, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else define(result, key, applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value, maxDepth - 1));
  }
  return result;
}
