import { fragmentsOf, titleOf, type FragmentOptions } from '../policy/highlight-fragments.js';
import { type MatchSource } from '../policy/highlight-matches.js';

/**
 * Markers around matched words in a test's text; stored text never holds them (see
 * withoutControlCharacters). Tests write matches this way, which reads better than listing ranges by hand.
 */
export const MARK_OPEN = '\u0002';
export const MARK_CLOSE = '\u0003';

const MARKERS = new RegExp(`([${MARK_OPEN}${MARK_CLOSE}])`);

interface Marked {
  plain: string;
  /** Matched ranges in `plain`, in order, as [start, end). */
  matches: [number, number][];
}

function eagerSource({ plain, matches }: Marked): MatchSource {
  return { text: plain, at: (i, before = plain.length) => ((matches[i]?.[0] ?? before) < before ? matches[i] : undefined), scanTo: () => undefined, found: matches, exhausted: true, read: plain.length };
}

/** Splits text with MARK_OPEN/MARK_CLOSE markers into plain text and the matched ranges. */
export function parseMarked(text: string): Marked {
  let plain = '';
  const matches: [number, number][] = [];
  let open = -1;
  for (const part of text.split(MARKERS)) {
    if (part === MARK_OPEN) open = plain.length;
    else if (part === MARK_CLOSE) {
      if (open >= 0 && plain.length > open) matches.push([open, plain.length]);
      open = -1;
    } else plain += part;
  }
  return { plain, matches };
}

/**
 * Up to `fragments` windows of about `length` characters around matched words of a marked text, as fragmentsOf
 * selects them.
 */
export function markedFragments(text: string, options: FragmentOptions = {}): string[] {
  return fragmentsOf(eagerSource(parseMarked(text)), options);
}

/** The whole of a short marked text (a title) as escaped HTML with `<mark>`; empty when nothing matched. */
export function markedTitle(text: string): string[] {
  return titleOf(eagerSource(parseMarked(text)));
}
