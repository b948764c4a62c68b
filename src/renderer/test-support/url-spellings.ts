import fc from 'fast-check';

/** How one spelling of a URL departs from the canonical one; {@link spellingOf} applies it. */
export interface SpellingParts {
  /** Positions (modulo the unreserved characters) escaped as `%XX`, each with lower-case hex or not. */
  escapes: readonly (readonly [number, boolean])[];
  /** Positions (modulo the slashes) after which a dot-segment snippet or an extra slash is put. */
  inserts: readonly (readonly [number, string])[];
  trailingSlash: boolean;
  query: string;
  fragment: string;
}

/** Spellings as strangers and crawlers send them: escapes in either case, dot segments, slashes, odd queries. */
export const spellingParts: fc.Arbitrary<SpellingParts> = fc.record({
  escapes: fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 4 }),
  inserts: fc.array(fc.tuple(fc.nat(), fc.constantFrom('./', '/', 'x/../', '%2e/', 'zz/%2E%2e/', 'a/b/%2e%2E/../', 'q/.%2E/', '//')), { maxLength: 3 }),
  trailingSlash: fc.boolean(),
  query: fc.constantFrom('', '?', '?&', '?a=1', '?a=1&a=1', '?a=&&b', '?j=42', '?q=x&q=y&'),
  fragment: fc.constantFrom('', '#', '#frag'),
});

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The spelling of `path` (a canonical path without query) that `parts` describe. */
export function spellingOf(path: string, parts: SpellingParts): string {
  // Tokens: an existing escape stays whole, so escaping never splits one.
  const tokens = path.match(/%[0-9A-F]{2}|[^]/g) ?? [];
  const plain = tokens.flatMap((token, i) => (UNRESERVED.test(token) ? [i] : []));
  for (const [at, lower] of parts.escapes) {
    if (plain.length === 0) break;
    const i = plain[at % plain.length]!;
    const token = tokens[i]!;
    if (token.length !== 1) continue;
    const hex = token.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
    tokens[i] = `%${lower ? hex.toLowerCase() : hex}`;
  }
  const slashes = tokens.flatMap((token, i) => (token === '/' ? [i] : []));
  for (const [at, snippet] of parts.inserts) tokens[slashes[at % slashes.length]!] += snippet;
  const spelled = tokens.join('');
  return `${spelled}${parts.trailingSlash ? '/' : ''}${parts.query}${parts.fragment}`;
}
