/*
 * What the search box takes from the search API's answers (browser code, pure): every field checked, since the box runs
 * on another site's pages and an answer that is not what the API sends (a proxy's error page, a hostile index) must
 * show nothing rather than break the page or reach it as markup or a script URL.
 */

export interface Completion {
  title: string;
  href: string;
}

export interface ResultItem {
  title: string;
  href: string;
  summary: string;
  /** Highlight fragments: escaped text with `<mark>` only, as the API sends them (see fragment-nodes.ts). */
  titleFragments: string[];
  bodyFragments: string[];
}

export interface Results {
  items: ResultItem[];
  total: number;
  /** The total is a lower bound (`gte`). */
  more: boolean;
  corrected?: string;
  suggestions: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown, max: number): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').slice(0, max) : []);
const MAX_TEXT = 1000;
const text = (value: unknown): string => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : '');

/** A result's link: the API's URL resolved against the page (URLs are paths on the site), http(s) only. */
export function safeHref(url: unknown, base: string): string | undefined {
  if (typeof url !== 'string' || url.length > 2048) return undefined;
  try {
    const resolved = new URL(url, base);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.href : undefined;
  } catch {
    return undefined;
  }
}

/** The matches of `GET /api/search/autocomplete`, at most 10; those without a title or a safe link left out. */
export function completionsOf(body: unknown, base: string): Completion[] {
  if (!isObject(body) || !Array.isArray(body.matches)) return [];
  const completions: Completion[] = [];
  for (const match of body.matches.slice(0, 10)) {
    if (!isObject(match)) continue;
    const href = safeHref(match.url, base);
    const title = text(match.title).trim();
    if (href !== undefined && title !== '') completions.push({ title, href });
  }
  return completions;
}

/** The answer of `GET /api/v1/search`, or undefined when it is not one. */
export function resultsOf(body: unknown, base: string): Results | undefined {
  if (!isObject(body) || !Array.isArray(body.documents) || !isObject(body.metadata) || !isObject(body.metadata.total)) return undefined;
  const { value, relation } = body.metadata.total;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  const items: ResultItem[] = [];
  for (const doc of body.documents.slice(0, 100)) {
    if (!isObject(doc)) continue;
    const href = safeHref(doc.url, base);
    const title = text(doc.title).trim();
    if (href === undefined || title === '') continue;
    const highlight = isObject(doc.highlight) ? doc.highlight : {};
    items.push({ title, href, summary: text(doc.summary), titleFragments: strings(highlight.title, 1), bodyFragments: strings(highlight.body, 3) });
  }
  const corrected = typeof body.metadata.corrected === 'string' && body.metadata.corrected !== '' ? body.metadata.corrected.slice(0, 200) : undefined;
  const suggestions = Array.isArray(body.suggestions) ? body.suggestions.filter(isObject).map((suggestion) => text(suggestion.text)).filter((s) => s !== '').slice(0, 3) : [];
  return { items, total: value, more: relation === 'gte', ...(corrected === undefined ? {} : { corrected }), suggestions };
}
