import { EsError } from './types.js';
import type { FieldMapping, Json } from './types.js';

/**
 * What the stand-in does with spelling: the term suggester and the expansion of fuzzy queries, both over the terms it
 * already stores (no analysis of their own), as Lucene's DirectSpellChecker and FuzzyQuery pick them.
 */

/** Damerau–Levenshtein (optimal string alignment) distance, by code points. */
export function editDistance(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const rows = Array.from({ length: left.length + 1 }, (_, i) => Array.from({ length: right.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      const row = rows[i] as number[];
      const previous = rows[i - 1] as number[];
      let value = Math.min((previous[j] as number) + 1, (row[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) value = Math.min(value, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = value;
    }
  }
  return (rows[left.length] as number[])[right.length] as number;
}

/** Lucene's `internal` similarity of a term and a candidate: 1 − edits ÷ the shorter length. */
const similarity = (edits: number, term: string, candidate: string) => 1 - edits / Math.min(Array.from(term).length, Array.from(candidate).length);

/**
 * The term suggester on a field whose terms hold in `vocabulary` (term → documents holding it) among `documents`
 * documents: per token of the text, candidates sharing the first `prefix_length` characters within `max_edits`, with a
 * similarity of at least 0.5 (Lucene's default accuracy). `suggest_mode` `missing` answers only for a token the field
 * does not hold, `popular` only candidates held in more documents than the token, `always` any; a token held in more
 * documents than `max_term_freq` (a count from 1, else a share of the documents; default 0.01) gets none. Options
 * sorted by `sort`: `score` (then documents) or `frequency` (then score).
 */
export function termSuggest(spec: Json, mapping: FieldMapping, vocabulary: ReadonlyMap<string, number>, documents: number): Json[] {
  const term = spec['term'] as Json;
  const maxEdits = Number(term['max_edits'] ?? 2);
  const prefixLength = Number(term['prefix_length'] ?? 1);
  const minWordLength = Number(term['min_word_length'] ?? 4);
  const size = Number(term['size'] ?? 5);
  const mode = term['suggest_mode'] ?? 'missing';
  const maxTermFrequency = Number(term['max_term_freq'] ?? 0.01);
  const mostDocuments = maxTermFrequency >= 1 ? maxTermFrequency : Math.ceil(maxTermFrequency * documents);
  const sort = term['sort'] ?? 'score';
  if (!['missing', 'popular', 'always'].includes(String(mode))) throw new EsError(400, 'illegal_argument_exception', `Illegal suggest mode ${String(mode)}`);
  if (sort !== 'score' && sort !== 'frequency') throw new EsError(400, 'illegal_argument_exception', `Illegal sort ${String(sort)}`);
  return mapping.searchAnalyzer(String(spec['text'] ?? '')).map((token) => {
    const characters = Array.from(token.term);
    const entry = { text: token.term, offset: token.start, length: token.end - token.start, options: [] as Json[] };
    const held = vocabulary.get(token.term) ?? 0;
    if (characters.length < minWordLength || (mode === 'missing' && held > 0) || held > mostDocuments) return entry;
    const prefix = characters.slice(0, prefixLength).join('');
    const options: { text: string; score: number; freq: number }[] = [];
    for (const [candidate, frequency] of vocabulary) {
      if (candidate === token.term || !candidate.startsWith(prefix) || (mode === 'popular' && frequency <= held)) continue;
      const edits = editDistance(token.term, candidate);
      if (edits > maxEdits) continue;
      const score = similarity(edits, token.term, candidate);
      if (score < 0.5) continue;
      options.push({ text: candidate, score, freq: frequency });
    }
    const byScore = (a: (typeof options)[number], b: (typeof options)[number]) => b.score - a.score || b.freq - a.freq;
    const byFrequency = (a: (typeof options)[number], b: (typeof options)[number]) => b.freq - a.freq || b.score - a.score;
    entry.options = options.sort((a, b) => (sort === 'score' ? byScore(a, b) : byFrequency(a, b)) || (a.text < b.text ? -1 : 1)).slice(0, size);
    return entry;
  });
}

/** The edits a `fuzziness` allows a term: 0, 1 or 2, or `AUTO[:low,high]` (none under low characters, 1 under high, else 2). */
function fuzzyEdits(fuzziness: unknown, term: string): number {
  if (typeof fuzziness === 'number' || /^[0-2]$/.test(String(fuzziness))) return Number(fuzziness);
  const auto = /^AUTO(?::(\d+),(\d+))?$/.exec(String(fuzziness));
  if (auto === null) throw new EsError(400, 'parsing_exception', `failed to parse fuzziness [${String(fuzziness)}]`);
  const length = Array.from(term).length;
  return length < Number(auto[1] ?? 3) ? 0 : length < Number(auto[2] ?? 6) ? 1 : 2;
}

/**
 * The terms a fuzzy query expands `term` to, as Lucene's FuzzyQuery: terms of the field (`vocabulary`, term →
 * documents holding it) within the edits `spec.fuzziness` allows, transpositions counting one, sharing the first
 * `prefix_length` characters; the `max_expansions` most similar (default 50), each with its similarity as its boost
 * and, as Lucene's blended rewrite does, the largest document count among them as its own, so a rare neighbour does
 * not outscore the word.
 */
export function fuzzyExpansions(term: string, spec: Json, vocabulary: ReadonlyMap<string, number>): { term: string; boost: number; documents: number }[] {
  const edits = fuzzyEdits(spec['fuzziness'], term);
  const prefix = Array.from(term).slice(0, Number(spec['prefix_length'] ?? 0)).join('');
  const found: { term: string; boost: number; documents: number }[] = [];
  for (const [candidate, documents] of vocabulary) {
    if (!candidate.startsWith(prefix)) continue;
    const distance = candidate === term ? 0 : editDistance(term, candidate);
    if (distance <= edits) found.push({ term: candidate, boost: similarity(distance, term, candidate), documents });
  }
  const kept = found.sort((a, b) => b.boost - a.boost || (a.term < b.term ? -1 : 1)).slice(0, Number(spec['max_expansions'] ?? 50));
  const blended = Math.max(0, ...kept.map((expansion) => expansion.documents));
  return kept.map((expansion) => ({ ...expansion, documents: blended }));
}
