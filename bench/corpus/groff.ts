/**
 * The text of a manual page written with groff's `man` macros, as a reader sees it: its NAME line, and its sections as
 * paragraphs of plain text. Enough of groff for the translated pages Debian ships (fonts, special characters, tables,
 * macro definitions skipped), not a typesetter. Pure.
 */

export interface ManSection {
  heading: string;
  paragraphs: string[];
}

export interface ManPage {
  /** The NAME section's text, `ls - list directory contents`; empty when the page has none. */
  name: string;
  /** Every section after NAME, in order. */
  sections: ManSection[];
  /** The page only sources another (`.so man1/xz.1`): an alias, not a page of its own. */
  alias: boolean;
}

const SPECIAL: Record<string, string> = {
  bu: '•', em: '—', en: '–', hy: '-', mi: '-', aq: "'", dq: '"', lq: '“', rq: '”', oq: '‘', cq: '’', co: '©', rg: '®',
  tm: '™', ha: '^', ti: '~', rs: '\\', sl: '/', ga: '`', at: '@', sh: '#', Do: '$', lB: '[', rB: ']', lC: '{', rC: '}',
  ba: '|', or: '|', la: '⟨', ra: '⟩', '->': '→', '<-': '←', '>=': '≥', '<=': '≤', mu: '×', de: '°', ua: '↑', da: '↓',
};

function special(name: string): string {
  const unicode = /^u([0-9A-Fa-f]{4,6})$/.exec(name);
  if (unicode !== null) return String.fromCodePoint(Number.parseInt(unicode[1] as string, 16));
  return SPECIAL[name] ?? '';
}

/** Text with groff's escapes resolved: fonts and sizes dropped, special characters and strings written out. */
export function unescape(line: string): string {
  return line
    .replace(/\\".*$/, '')
    .replace(/\\f(?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\s[+-]?(?:\d|\[\d+\]|\(\d\d)/g, '')
    .replace(/\\\*(?:\[([^\]]*)\]|\((..)|(.))/g, (_, long?: string, short?: string, one?: string) => special(long ?? short ?? one ?? ''))
    .replace(/\\\[([^\]]*)\]/g, (_, name: string) => special(name))
    .replace(/\\\((..)/g, (_, name: string) => special(name))
    .replace(/\\[nk](?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\[hvwlLoDxXbZ]'[^']*'/g, '')
    .replace(/\\[-e\\]/g, (escape) => (escape === '\\-' ? '-' : '\\'))
    .replace(/\\[ ~0]/g, ' ')
    .replace(/\\[&|^:%/,)c!dut{}]/g, '')
    .replace(/\\(.)/g, '$1');
}

/** A macro's arguments: words split on blanks, quoted ones whole (`"a b" c` → `a b`, `c`). */
function argumentsOf(rest: string): string[] {
  return [...rest.matchAll(/"((?:[^"]|"")*)"?|(\S+)/g)].map((match) => (match[1] ?? match[2] ?? '').replace(/""/g, '"'));
}

/** Scripts written without spaces between words: two lines of them join without one. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}ー、。「」（）]/u;

function join(before: string, after: string): string {
  if (before === '') return after;
  if (after === '') return before;
  const last = Array.from(before).at(-1) ?? '';
  const first = Array.from(after)[0] ?? '';
  return UNSPACED.test(last) && UNSPACED.test(first) ? before + after : `${before} ${after}`;
}

/** Macros that set words in fonts, and so keep their arguments as text (`.BR ls (1)` → `ls(1)`). */
const FONT_MACROS = new Set(['B', 'I', 'SM', 'SB']);
const ALTERNATING_MACROS = new Set(['BR', 'RB', 'IR', 'RI', 'BI', 'IB']);
const HEADING_MACROS = new Set(['SH', 'SS']);
/** Blocks whose lines are not text: macro definitions and ignored input, up to `..`. */
const SKIPPED_BLOCKS = new Set(['de', 'de1', 'am', 'ig']);

export function parseManPage(source: string): ManPage {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const page: ManPage = { name: '', sections: [], alias: false };
  let section: ManSection | undefined;
  let paragraph = '';
  let inName = false;
  let skipping = false;
  let tableFormat = false;
  const flush = () => {
    const text = paragraph.replace(/\s+/g, ' ').trim();
    paragraph = '';
    if (text === '') return;
    if (inName) page.name = join(page.name, text);
    else section?.paragraphs.push(text);
  };
  const add = (text: string) => {
    paragraph = join(paragraph.trimEnd(), text.trim());
  };
  for (const line of lines) {
    if (skipping) {
      if (/^[.']\s*\.\.?\s*$/.test(line) || line.trim() === '..') skipping = false;
      continue;
    }
    if (tableFormat) {
      if (/\.\s*$/.test(line)) tableFormat = false;
      continue;
    }
    const macro = /^[.']\s*(\S+)\s*(.*)$/.exec(line);
    if (macro === null) {
      add(unescape(line).replace(/\t/g, ' '));
      continue;
    }
    const name = macro[1] as string;
    const rest = macro[2] as string;
    if (name.startsWith('\\"')) continue;
    if (name === 'so') {
      page.alias = true;
      continue;
    }
    if (SKIPPED_BLOCKS.has(name)) {
      skipping = true;
      continue;
    }
    if (name === 'TS') {
      flush();
      tableFormat = true;
      continue;
    }
    if (HEADING_MACROS.has(name)) {
      flush();
      const heading = unescape(argumentsOf(rest).join(' ')).trim();
      if (name === 'SH' && page.name === '' && page.sections.length === 0 && !inName) {
        inName = true;
        continue;
      }
      if (inName) inName = false;
      if (name === 'SH' || section === undefined) {
        section = { heading, paragraphs: [] };
        page.sections.push(section);
      } else if (heading !== '') {
        section.paragraphs.push(heading);
      }
      continue;
    }
    if (FONT_MACROS.has(name)) {
      add(unescape(argumentsOf(rest).join(' ')));
      continue;
    }
    if (ALTERNATING_MACROS.has(name)) {
      add(unescape(argumentsOf(rest).join('')));
      continue;
    }
    // Every other request breaks the line; an item's tag (`.IP -a`) is text unless it is a bullet.
    flush();
    if (name === 'IP') {
      const tag = unescape(argumentsOf(rest)[0] ?? '').trim();
      if (/[\p{L}\p{N}]/u.test(tag)) add(tag);
    }
  }
  flush();
  return page;
}
