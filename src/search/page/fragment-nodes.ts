/*
 * The rule of highlight.ts's isSafeFragment, kept here because this module runs in the browser: importing highlight.ts
 * would bundle the whole analysis module, stemmers of 17 languages included (127 KB), into every page's script.
 * fragment-nodes.test.ts holds the two to the same answers.
 */
const MARKUP = /<\/?mark>/g;

export function isSafeFragment(html: string): boolean {
  return !/[<>"']/.test(html.replace(MARKUP, '')) && !/&(?!(?:amp|lt|gt|quot|#39);)/.test(html);
}

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
