import type { Json, StoredDoc, Token } from './types.js';

function htmlEncode(text: string): string {
  return text.replace(/["&<>'/]/g, (character) => ({ '"': '&quot;', '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#x27;', '/': '&#x2F;' })[character] ?? character);
}

export function highlightField(text: string, tokens: Token[], terms: Set<string>, options: Json, defaults: Json): string[] {
  const encode = (options['encoder'] ?? defaults['encoder']) === 'html' ? htmlEncode : (value: string) => value;
  const pre = (((options['pre_tags'] ?? defaults['pre_tags']) as string[] | undefined) ?? ['<em>'])[0] ?? '<em>';
  const post = (((options['post_tags'] ?? defaults['post_tags']) as string[] | undefined) ?? ['</em>'])[0] ?? '</em>';
  const matches = tokens.filter((token) => terms.has(token.term)).sort((a, b) => a.start - b.start);
  if (matches.length === 0) return [];
  const render = (start: number, end: number) => {
    let out = '';
    let at = start;
    for (const match of matches) {
      if (match.start < at || match.end > end) continue;
      out += encode(text.slice(at, match.start)) + pre + encode(text.slice(match.start, match.end)) + post;
      at = match.end;
    }
    return out + encode(text.slice(at, end));
  };
  const count = Number(options['number_of_fragments'] ?? defaults['number_of_fragments'] ?? 5);
  if (count === 0) return [render(0, text.length)];
  const size = Number(options['fragment_size'] ?? defaults['fragment_size'] ?? 100);
  const fragments: { start: number; end: number; hits: number }[] = [];
  for (const match of matches) {
    const last = fragments.at(-1);
    if (last !== undefined && match.end <= last.end) {
      last.hits++;
      continue;
    }
    let start = Math.max(0, match.start - Math.floor((size - (match.end - match.start)) / 2));
    while (start > 0 && !/\s/.test(text[start - 1] ?? '')) start--;
    let end = Math.min(text.length, Math.max(match.end, start + size));
    while (end < text.length && !/\s/.test(text[end] ?? '')) end++;
    fragments.push({ start, end, hits: 1 });
  }
  const chosen = [...fragments].sort((a, b) => b.hits - a.hits || a.start - b.start).slice(0, count).sort((a, b) => a.start - b.start);
  return chosen.map((fragment) => render(fragment.start, fragment.end).trim());
}

/** The `highlight` of a hit: the fragments of each field asked for that matched `terms`. */
export function highlightHit(doc: StoredDoc, terms: Map<string, Set<string>>, highlight: Json): Json {
  const fields: Json = {};
  for (const [field, options] of Object.entries((highlight['fields'] ?? {}) as Record<string, Json>)) {
    const indexed = doc.text.get(field);
    const wanted = terms.get(field);
    if (indexed === undefined || wanted === undefined) continue;
    const fragments = highlightField(indexed.text, indexed.tokens, wanted, options, highlight);
    if (fragments.length > 0) fields[field] = fragments;
  }
  return fields;
}
