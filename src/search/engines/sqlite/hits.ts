import { beginningOf, fragmentsOf, fragmentsOfBeginning, titleOf, type FragmentOptions, type ShownWords } from '../../policy/highlight-fragments.js';
import { matchWords, type TermMatcher } from '../../policy/highlight-matches.js';
import { STEM_MARKER, stemOf } from '../../analysis/index.js';
import type { TextPlan } from './text-plan.js';
import { beginningText } from './stored-text.js';
import { tablesOf } from './tables.js';
import type { HighlightOptions, SearchHit } from '../types.js';
import type { Connection } from './connection.js';
import type { RankedRow } from './retrieval-plan.js';

/**
 * Highlighting reads a body's first this many bytes of UTF-8, and more only when fragments may lie past them: a long
 * page's fragments are almost always in its beginning, and reading and decoding the whole of ten long bodies would cost
 * more than the rest of the search. Three times the characters in which words not shown yet are looked for (see
 * highlight.ts), so that a beginning of three-byte characters (CJK) still holds them all.
 */
export const BODY_BEGINNING = 24_576;

/**
 * Fragments are looked for in a body's first this many bytes of UTF-8 only (then before a space), as Lucene's and
 * Elasticsearch's highlighters bound what they analyse of a document: reading, decoding and folding the whole of ten
 * long pages for a word they hold once, or not at all (a title match), made highlighting's cost grow with the pages'
 * length without bound. A match past it is not shown; the page is still found.
 */
export const HIGHLIGHTED_BYTES = 131_072;

/** A documents row as a search reads it: the hit's stored fields, and what highlighting needs. */
interface SearchRow extends Omit<SearchHit, 'score' | 'highlight'> {
  /** The first bytes of the body as stored (see stored-text.ts): Latin-1, or UTF-8 where `utf8`. */
  body?: Buffer | null;
  /** Whether the body is stored as text (UTF-8). */
  utf8?: number;
  /** Whether the body is longer than the bytes read. */
  long?: number;
}

/**
 * The hits of ranked rows, highlighted when asked. Highlighting reads the stored text and marks the query's words:
 * FTS5's highlight() would run the whole expression again for the row and tokenize every column it marks, however
 * little of a long body is shown. A body is read up to BODY_BEGINNING bytes (cut as bytes: substr() of text counts
 * characters through the whole body), and up to HIGHLIGHTED_BYTES only when the beginning's fragments may not be the
 * whole body's.
 */
export function readHits(connection: Connection, index: string, ranked: readonly RankedRow[], plan: TextPlan, highlight: HighlightOptions | undefined): SearchHit[] {
  const tables = tablesOf(index);
  const columns = 'd.id, d.url, d.title, d.locale, d.slug, d.popularity, d.summary';
  const where = `FROM ${tables.docs} d WHERE d.rowid = ?`;
  if (highlight === undefined) {
    const read = connection.statement(`${index}\u0000read`, () => `SELECT ${columns} ${where}`);
    return ranked.map((rank) => hitOf(read.get(rank.rowid) as SearchRow, rank.score));
  }
  const matcher = termMatcher(plan);
  const options: FragmentOptions = { fragments: highlight.fragments, length: highlight.fragmentLength };
  // The first pass stops once every word is shown, only where no unfinished word is marked by its prefix.
  const shownTerms = matcher.prefixes === undefined ? shownWordsOf(plan) : undefined;
  // The bytes as stored, decoded here (see beginningText); octet_length() is the stored size, read without the body.
  const read = (bytes: number) => `substr(CAST(d.body AS BLOB), 1, ${bytes}) AS body, typeof(d.body) = 'text' AS utf8, octet_length(d.body) > ${bytes} AS long`;
  const readBody = connection.statement(`${index}\u0000read-body`, () => `SELECT ${columns}, ${read(BODY_BEGINNING)} ${where}`);
  const readHighlighted = connection.statement(`${index}\u0000read-highlighted`, () => `SELECT ${read(HIGHLIGHTED_BYTES)} ${where}`);
  const bodyFragments = (rowid: number, row: SearchRow): string[] => {
    const body = beginningText(row.body, row.utf8 === 1, row.long === 1);
    if (row.long !== 1) return fragmentsOf(matchWords(body, matcher), options, shownTerms);
    // A beginning ends before a space, so that no word is cut and the longer read continues it.
    const beginning = matchWords(beginningOf(body, body.length - 1), matcher);
    const settled = fragmentsOfBeginning(beginning, options, shownTerms);
    if (settled !== undefined) return settled;
    const highlighted = readHighlighted.get(rowid) as SearchRow;
    const text = beginningText(highlighted.body, highlighted.utf8 === 1, highlighted.long === 1);
    return highlighted.long !== 1
      ? fragmentsOf(matchWords(text, matcher, beginning), options, shownTerms)
      : fragmentsOf(matchWords(beginningOf(text, text.length - 1), matcher, beginning), options, shownTerms, true);
  };
  return ranked.map((rank) => {
    const row = readBody.get(rank.rowid) as SearchRow;
    return { ...hitOf(row, rank.score), highlight: { title: titleOf(matchWords(row.title, matcher)), body: bodyFragments(rank.rowid, row) } };
  });
}

/** The hit of a read row, without highlighting. */
function hitOf(row: SearchRow, score: number): SearchHit {
  return { id: row.id, url: row.url, title: row.title, summary: row.summary, locale: row.locale, slug: row.slug, popularity: row.popularity, score };
}

/**
 * The terms a plan matches, as highlighting marks them: its words, their completions and alternatives (parts of an
 * identifier, spelling neighbours), an unexpanded prefix as a prefix, and the other forms of its words by stem.
 */
function termMatcher(plan: TextPlan): TermMatcher {
  const words = plan.words;
  const terms = new Set([...words, ...(plan.expansions ?? [])]);
  const stems = new Set<string>();
  const anchors = new Set<string>();
  words.forEach((word, at) => {
    for (const other of plan.alternatives?.[at] ?? []) {
      if (!other.startsWith(STEM_MARKER)) {
        for (const term of other.split(' ')) terms.add(term);
        continue;
      }
      const stem = other.slice(STEM_MARKER.length);
      stems.add(stem);
      // Other forms begin as the word and its stem both do (`happ` of `happy` and `happi`); where that is the whole
      // word, the word itself is found at the start of its other forms.
      const shared = commonPrefix(word, stem);
      if (shared !== word && Array.from(shared).length >= MIN_ANCHOR_LENGTH) anchors.add(shared);
    }
  });
  const matcher: TermMatcher = { terms };
  if (stems.size > 0 && plan.languages.length > 0) {
    matcher.otherForms = { anchors: [...anchors], matches: (term) => plan.languages.some((language) => stems.has(stemOf(language, term))) };
  }
  const last = words[words.length - 1];
  if (plan.prefixLast && plan.expansions === undefined && last !== undefined) matcher.prefixes = [last];
  return matcher;
}

/**
 * The words of a plan as fragment selection looks for them (see ShownWords): each as typed, or as what replaces or
 * splits it, a spelling neighbour or an identifier's parts. Not its other forms: a page rarely holds every form of a
 * word, and the first pass would then read as far as it looks for every page.
 */
function shownWordsOf(plan: TextPlan): ShownWords {
  return plan.words.map((word, at) => {
    const terms = new Set([word]);
    for (const other of plan.alternatives?.[at] ?? []) if (!other.startsWith(STEM_MARKER)) for (const term of other.split(' ')) terms.add(term);
    return terms;
  });
}

/** Other forms of a word are looked for by a beginning of at least this many characters. */
const MIN_ANCHOR_LENGTH = 3;

function commonPrefix(a: string, b: string): string {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return a.slice(0, length);
}
