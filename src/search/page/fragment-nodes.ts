import { isSafeFragment } from '../highlight.js';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function unescape(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

export interface FragmentPart {
  text: string;
  marked: boolean;
}

/**
 * A highlight fragment from the API as text parts, marked or not. The fragment is trusted only when it is escaped
 * text with `<mark>` tags and nothing else; anything else is returned as one unmarked part holding the raw string, so
 * the page shows it as text and never parses it as HTML.
 */
export function fragmentParts(html: string): FragmentPart[] {
  if (!isSafeFragment(html)) return [{ text: html, marked: false }];
  const parts: FragmentPart[] = [];
  let marked = false;
  for (const piece of html.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece !== '') parts.push({ text: unescape(piece), marked });
  }
  return parts;
}
