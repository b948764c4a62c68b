/**
 * Pure mapping between the engine's documents and hits and Elasticsearch's: the source a document is sent as, and a
 * search hit and total read back. No I/O.
 */
import type { estypes } from '@elastic/elasticsearch';
import { foldPhrase, withWordBreaks, withoutWordBreaks } from '../../analysis/index.js';
import { withoutControlCharacters } from '../../policy/query-text.js';
import { AUTOCOMPLETE_MAX_GRAM, POPULARITY_FACTOR, TITLE_WORDS, stemmedCopy } from './schema.js';
import { laterWordStarts } from '../../policy/autocomplete.js';
import type { IndexedDocument, SearchHit, SearchQuery, SearchResult } from '../types.js';

/** The fields of a hit read back from `_source`: the rest of a SearchHit is the id, the score and the highlights. */
export const HIT_SOURCE = ['url', 'title', 'summary', 'locale', 'slug', 'popularity'] as const satisfies readonly (keyof SearchHit)[];

export type StoredDocument = Pick<SearchHit, (typeof HIT_SOURCE)[number]>;

/** A search's total as the engine reports it: exact, or a lower bound past `track_total_hits`. */
export function totalOf(response: estypes.SearchResponse<unknown>): SearchResult['total'] {
  const total = response.hits.total;
  return typeof total === 'number'
    ? { value: total, relation: 'eq' }
    : { value: total?.value ?? 0, relation: total?.relation === 'gte' ? 'gte' : 'eq' };
}

/**
 * A document as sent: the stored fields, the stemmed copy of its text in its locale's language (see stemmedCopy) and
 * its title's word starts for autocomplete (see titleWords, from the title as written). The text fields carry a WORD_BREAK at each break of the
 * analysis (see analysis-settings.ts), taken out again from whatever the cluster gives back (see withoutBreaks).
 */
export function storedDocument(document: IndexedDocument): StoredDocument & { body: string; [TITLE_WORDS]: string[] } {
  const stored = {
    url: document.url,
    title: withWordBreaks(withoutControlCharacters(document.title)),
    summary: withWordBreaks(withoutControlCharacters(document.summary)),
    body: withWordBreaks(withoutControlCharacters(document.body)),
    popularity: document.popularity,
    locale: document.locale,
    slug: document.slug,
  };
  return { ...stored, ...stemmedCopy(stored), [TITLE_WORDS]: titleWords(withoutControlCharacters(document.title)) };
}

export function toHit(hit: estypes.SearchHit<StoredDocument>, sort: SearchQuery['sort'], withHighlight: boolean): SearchHit {
  const source = hit._source as StoredDocument;
  const engineScore = hit._score ?? 0;
  const result: SearchHit = {
    id: hit._id ?? '',
    url: source.url,
    title: withoutWordBreaks(source.title),
    summary: withoutWordBreaks(source.summary),
    locale: source.locale,
    slug: source.slug,
    popularity: source.popularity,
    // `best` scores include the popularity term; the interface reports the text score alone.
    score: sort === 'best' ? engineScore - source.popularity * POPULARITY_FACTOR : engineScore,
  };
  if (withHighlight) {
    result.highlight = { title: (hit.highlight?.['title'] ?? []).map(withoutWordBreaks), body: (hit.highlight?.['body'] ?? []).map(withoutWordBreaks) };
  }
  return result;
}

/**
 * A title's word starts as `title_words` holds them: the folded title from its start and from each later word (see
 * policy/autocomplete.ts), cut to the n-gram length the typed prefix is cut to.
 */
export function titleWords(title: string): string[] {
  const cut = (start: string) => Array.from(start).slice(0, AUTOCOMPLETE_MAX_GRAM).join('');
  return [...new Set([foldPhrase(title), ...laterWordStarts(title)].filter((start) => start !== '').map(cut))];
}
