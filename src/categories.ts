/**
 * What a category name is, and the address of its page. Pure and free of imports: the origin's validation, the
 * origin's purge policy, the renderer and the client bundle share it, so all of them name a category the same way.
 */

export const CATEGORY_NAME_MAX_LENGTH = 40;

/** Letters, digits, spaces and `. _ + # -`, starting with a letter or a digit. */
const CATEGORY_NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._+#-]*$/u;

/**
 * Whether `value` is a category name as the origin stores it: 1–40 characters of the pattern, NFC, with no space at
 * either end. The origin normalizes and trims what an admin writes before it checks, so every stored name passes.
 */
export function isCategoryName(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 1 &&
    // Characters as every text limit counts them: code points (`[...value]`), not UTF-16 units.
    [...value].length <= CATEGORY_NAME_MAX_LENGTH &&
    CATEGORY_NAME_PATTERN.test(value) &&
    value === value.trim() &&
    value === value.normalize('NFC')
  );
}

export const CATEGORY_PATH_PREFIX = '/plog/category/';

/** The canonical path of a category's page: its name percent-encoded as one path segment (`C#` → `/plog/category/C%23`). */
export function categoryPath(name: string): string {
  return `${CATEGORY_PATH_PREFIX}${encodeURIComponent(name)}`;
}
