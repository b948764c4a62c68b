import { MARK_CLOSE, MARK_OPEN, escapeHtml } from './query-text.js';

/** Options of body fragment selection. */
export interface FragmentOptions {
  /** Fragments to return at most. @default 3 */
  fragments?: number;
  /** Approximate fragment length in characters. @default 120 */
  length?: number;
}

export const FRAGMENT_DEFAULTS = { fragments: 3, length: 120 } satisfies Required<FragmentOptions>;

const MARKERS = new RegExp(`([${MARK_OPEN}${MARK_CLOSE}])`);

interface Marked {
  plain: string;
  /** Matched ranges in `plain`, in order, as [start, end). */
  matches: [number, number][];
}

/** Splits engine output with MARK_OPEN/MARK_CLOSE markers into plain text and the matched ranges. */
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

const SPACE = /\s/;

/** A cut position near `index` on a space within `slack` characters (searching in `direction`), never inside a surrogate pair. */
function boundary(text: string, index: number, direction: -1 | 1, slack: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  for (let step = 0; step <= slack; step++) {
    const at = index + direction * step;
    if (at <= 0 || at >= text.length) return Math.max(0, Math.min(text.length, at));
    if (SPACE.test(text[at] as string)) return direction === 1 ? at : at + 1;
  }
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index + direction : index;
}

function render(plain: string, matches: readonly [number, number][], start: number, end: number): string {
  let html = start > 0 ? '…' : '';
  let at = start;
  for (const [matchStart, matchEnd] of matches) {
    if (matchEnd <= start || matchStart >= end) continue;
    const from = Math.max(matchStart, start);
    const to = Math.min(matchEnd, end);
    html += `${escapeHtml(plain.slice(at, from))}<mark>${escapeHtml(plain.slice(from, to))}</mark>`;
    at = to;
  }
  html += escapeHtml(plain.slice(at, end).trimEnd());
  return end < plain.length ? `${html}…` : html;
}

/**
 * Up to `fragments` windows of about `length` characters around matched words of a marked text, as HTML-escaped text
 * whose only markup is `<mark>…</mark>`. Windows showing a word not shown yet come first; they are returned in text
 * order and never overlap.
 */
export function markedFragments(text: string, options: FragmentOptions = {}): string[] {
  const count = Math.max(0, Math.trunc(options.fragments ?? FRAGMENT_DEFAULTS.fragments));
  const length = Math.max(20, Math.trunc(options.length ?? FRAGMENT_DEFAULTS.length));
  const { plain, matches } = parseMarked(text);
  if (count === 0 || matches.length === 0) return [];
  const windows: [number, number][] = [];
  const shown = new Set<string>();
  const lead = Math.floor(length / 4);
  const slack = Math.floor(length / 6);
  const covered = (position: number) => windows.some(([start, end]) => position >= start && position < end);
  const place = (matchStart: number, matchEnd: number) => {
    const start = boundary(plain, matchStart - lead, -1, slack);
    const end = Math.max(matchEnd, boundary(plain, start + length, 1, slack));
    const previous = windows.filter(([, windowEnd]) => windowEnd <= matchStart).reduce((max, [, windowEnd]) => Math.max(max, windowEnd), 0);
    const next = windows.filter(([windowStart]) => windowStart >= matchEnd).reduce((min, [windowStart]) => Math.min(min, windowStart), plain.length);
    windows.push([Math.max(start, previous), Math.min(end, next)]);
  };
  for (const pass of ['new words', 'in order'] as const) {
    for (const [matchStart, matchEnd] of matches) {
      if (windows.length === count) break;
      if (covered(matchStart)) continue;
      const word = plain.slice(matchStart, matchEnd).toLowerCase();
      if (pass === 'new words' && shown.has(word)) continue;
      place(matchStart, matchEnd);
      for (const [start, end] of matches) if (start >= (windows.at(-1)?.[0] ?? 0) && end <= (windows.at(-1)?.[1] ?? 0)) shown.add(plain.slice(start, end).toLowerCase());
    }
  }
  return windows.sort((a, b) => a[0] - b[0]).map(([start, end]) => render(plain, matches, start, end));
}

/** The whole of a short marked text (a title) as escaped HTML with `<mark>`; empty when nothing matched. */
export function markedTitle(text: string): string[] {
  const { plain, matches } = parseMarked(text);
  return matches.length === 0 ? [] : [render(plain, matches, 0, plain.length)];
}

const MARKUP = /<\/?mark>/g;

/** Whether an HTML fragment is escaped text with only `<mark>` and `</mark>` tags (what the search page checks before inserting it). */
export function isSafeFragment(html: string): boolean {
  return !/[<>"']/.test(html.replace(MARKUP, '')) && !/&(?!(?:amp|lt|gt|quot|#39);)/.test(html);
}
