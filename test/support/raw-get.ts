import { rawText } from '../../src/test-support/raw-http.js';
import type { Answer } from '../../src/edge/test-support/edge-harness.js';

/**
 * A GET of `target` exactly as written (dot segments, escapes, `#`, an absolute form), as `curl --path-as-is` sends
 * it: fetch and a URL string would resolve dot segments and drop the fragment first.
 */
export function rawGet(base: string, target: string, headers: Record<string, string> = {}): Promise<Answer> {
  return rawText(base, target, { headers });
}

/** What a reader ends up with for `target`: the answer, after one permanent redirect if the first answer is one. */
export async function reached(base: string, target: string, headers: Record<string, string> = {}): Promise<{ first: Answer; last: Answer }> {
  const first = await rawGet(base, target, headers);
  const location = first.headers.location;
  if (first.status !== 301 || location === undefined) return { first, last: first };
  return { first, last: await rawGet(base, location, headers) };
}
