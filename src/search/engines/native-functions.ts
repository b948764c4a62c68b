import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

/**
 * The ranking function of native/sitestack-fts5.c, built into build/ by scripts/build-native.mjs (at `npm ci`, and
 * by `npm run build`, `npm test` and `npm run bench`). It is `bm25()` with each phrase's document count given by the
 * caller instead of counted by a scan of the whole index per statement.
 */
export const NATIVE_RANK_FUNCTION = 'sitestack_bm25';

/**
 * The highlighting function of native/fragments.c, in the same library: highlight.ts's body fragments, computed from
 * the stored UTF-8 of text whose characters are all below U+0250 (NULL for other text, highlighted in JS).
 */
export const NATIVE_FRAGMENTS_FUNCTION = 'sitestack_fragments';

/** The whole of a text (a title) marked, as highlight.ts titleOf; same library, same text. */
export const NATIVE_MARKED_FUNCTION = 'sitestack_marked';

/**
 * An aggregate of the same library: every argument of every row as one BLOB of native-endian doubles, so a walk of
 * candidates reaches JS as one value (see nativeDoubles).
 */
export const NATIVE_DOUBLES_FUNCTION = 'sitestack_doubles';

/** The most fragments the native function places; JS highlights a request for more. */
export const NATIVE_FRAGMENTS_MAX = 16;

/** What joins the native function's fragments and its terms (stored text holds no control characters). */
export const NATIVE_SEPARATOR = '\u0001';

/** The library's path: `build/` at the package root, from src/search/engines or dist/search/engines alike. */
export const NATIVE_LIBRARY = fileURLToPath(
  new URL(`../../../build/sitestack-fts5.${process.platform === 'darwin' ? 'dylib' : process.platform === 'win32' ? 'dll' : 'so'}`, import.meta.url),
);

/** Why the native functions are not in a connection, or undefined when they are. */
export type NativeProblem = string | undefined;

/** Loads the native functions into `db`; answers what stopped it, if anything. */
export function loadNativeFunctions(db: Database.Database, library = NATIVE_LIBRARY): NativeProblem {
  if (!existsSync(library)) return `${library} is not built (run npm run build; it needs a C compiler)`;
  try {
    // SQLite derives the entry point from the file name: sitestack-fts5 → sqlite3_sitestackfts_init.
    db.loadExtension(library);
    return undefined;
  } catch (error) {
    return `${library} did not load: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The document counts of an expression's phrases, as the ranking function takes them: one double per phrase. A count
 * that is unknown (-1) is counted by the function itself, as bm25() counts every one.
 */
export function phraseCounts(counts: readonly number[]): Buffer {
  return Buffer.from(Float64Array.from(counts).buffer);
}

/** The numbers of a sitestack_doubles answer, read in place (copied first when its bytes are not 8-aligned). */
export function nativeDoubles(answer: Uint8Array): Float64Array {
  const aligned = answer.byteOffset % Float64Array.BYTES_PER_ELEMENT === 0 ? answer : answer.slice();
  return new Float64Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / Float64Array.BYTES_PER_ELEMENT));
}

/** The fragments of the native fragments function's answer. */
export function nativeFragments(answer: string): string[] {
  return answer === '' ? [] : answer.split(NATIVE_SEPARATOR);
}

/** The title highlight of the native marked function's answer. */
export function nativeMarked(answer: string): string[] {
  return answer === '' ? [] : [answer];
}
