import { planCountExpression, searchExpression } from '../../search-expression.js';
import { BOUND_LIMIT } from '../../../sqlite-limit.js';
import { tablesOf } from './tables.js';
import { clampInteger } from '../validation.js';
import type { SearchQuery, SearchResult } from '../types.js';
import type { Connection } from './connection.js';
import { exactKeyOf, stemLanguageOf, termsOf } from '../../analysis/index.js';
import { readHits } from './hits.js';
import { BODY_CANDIDATES, EXACT_TITLE_BOOST, PHRASE_CANDIDATES, TITLE_CANDIDATES, TITLE_MATCH_BOOST, TOTAL_CAP, bodyWalkNeeded, exactTitleGaps, knownTotal, mergeWalks, newRetrieval, phraseToWalk, rankedPage, rowidOfRanked, takeBodyMatches, takeExactTitles, takePhraseMatches, takePopularityWalks, takeScored, takeTitleMatches, totalOf, walkedExpression, withDroppedWords, type RankedRow, type RowidRange } from './retrieval-plan.js';
import { cannotMatch, planOf, textRankOf, titleRankOf, type RankSettings } from './terms.js';
import { NO_FILTER, countIn, docFilter, filterNeeded, filterSql, rankedRead, rowidRanges } from './walks.js';

/** Whether a title holds every one of the dropped common words (none dropped: false). */
function droppedWordsIn(dropped: readonly string[] | undefined): (title: string) => boolean {
  if (dropped === undefined || dropped.length === 0) return () => false;
  return (title) => {
    const terms = new Set(termsOf(title));
    return dropped.every((word) => terms.has(word));
  };
}

/** Top-k retrieval, as retrieval-plan.ts decides it: the walks run here. */
export function searchIndex(connection: Connection, settings: RankSettings, index: string, query: SearchQuery): SearchResult {
  const sort = query.sort ?? 'best';
  const size = clampInteger(query.size, 10, 1, 100);
  const from = clampInteger(query.from, 0, 0, 10_000);
  const totalUpTo = clampInteger(query.totalUpTo, TOTAL_CAP, 1, 10_000);
  const highlight = query.highlight === undefined || query.highlight === false ? undefined : query.highlight === true ? {} : query.highlight;
  const plan = planOf(connection, index, query.text, { locales: query.locales, corrections: query.corrections });
  const expression = searchExpression(plan);
  if (expression === undefined || cannotMatch(connection, index, plan)) return { documents: [], total: { value: 0, relation: 'eq' } };
  const tables = tablesOf(index);
  const filter = docFilter(query.locales, query.slugPrefixes);
  const filters = filter.parameters;
  const ranges = rowidRanges(connection, index, query.locales);
  /** The first `limit` rows of a rowid-ordered statement over every range, in static-rank order. */
  const walk = <T>(read: (range: RowidRange) => T[], limit: number, rowidOf: (row: T) => number): T[] => mergeWalks(ranges.map(read), limit, rowidOf);
  // The query as searched (corrected words included), stemmed as the titles of its first locale are (see exactKeyOf).
  const [firstLocale] = query.locales ?? [];
  const titleKey = exactKeyOf(plan.corrected ?? query.text, firstLocale === undefined ? plan.languages[0] : stemLanguageOf(firstLocale));
  const wanted = from + size;
  const retrieval = newRetrieval();
  const scoredWalk = (score: string) =>
    rankedRead(connection, `${index}\u0000walk\u0000${score}\u0000${filter.shape}`, () =>
      `SELECT ${tables.fts}.rowid AS rowid, d.popularity AS popularity,
              ${score} + (d.exact_key = ?) * ${EXACT_TITLE_BOOST} AS score
       FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid
       WHERE ${filterSql(tables.fts, filter)}
       ORDER BY ${tables.fts}.rowid ${BOUND_LIMIT}`,
    );
  if (sort === 'popularity') {
    const walks = ranges.map(([low, high]) => scoredWalk(textRankOf(settings, index))([titleKey, expression, ...filters, low, high, wanted]));
    takePopularityWalks(retrieval, walks, from, wanted);
  } else {
    // As in the body, a query of common words scores its title matches without bm25: they come in popularity order,
    // the exact title first, and no IDF is read from posting lists that hold most of the titles.
    const titleScore = plan.common ? '0' : titleRankOf(settings, index);
    const titleExpression = walkedExpression(plan, searchExpression(plan) as string);
    const titleRows = connection.statement(`${index}\u0000titles\u0000${titleScore}\u0000${filter.shape}`, () =>
      `SELECT ${tables.titles}.rowid, d.popularity, ${titleScore} + ${TITLE_MATCH_BOOST} + (d.exact_key = ?) * ${EXACT_TITLE_BOOST}, ${titleScore}, d.title
       FROM ${tables.titles} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.titles}.rowid
       WHERE ${filterSql(tables.titles, filter)}
       ORDER BY ${tables.titles}.rowid ${BOUND_LIMIT}`,
    ).raw();
    const holdsDropped = droppedWordsIn(plan.dropped);
    const titleMatches = walk(
      (range) => (titleRows.all(titleKey, titleExpression, ...filters, ...range, TITLE_CANDIDATES) as [number, number, number, number, string][])
        .map(([rowid, popularity, score, ownScore, title]) => withDroppedWords({ rowid, popularity, score, titleScore: ownScore, holdsDropped: holdsDropped(title) })),
      TITLE_CANDIDATES,
      rowidOfRanked,
    );
    if (takeTitleMatches(retrieval, titleMatches)) {
      const exact = connection.statement(`${index}\u0000exact-title\u0000${filter.shape}`, () =>
        `SELECT d.rowid FROM ${tables.docs} d WHERE d.exact_key = ? AND ${filter.sql} ORDER BY d.rowid ${BOUND_LIMIT}`,
      ).pluck().all(titleKey, ...filters, wanted) as number[];
      const gaps = exactTitleGaps(retrieval, titleMatches, exact);
      const missing = gaps.missing;
      const scoredExact = gaps.scored ?? (missing.length === 0 ? undefined : connection.statement(`${index}\u0000title-score\u0000${titleScore}`, () =>
        `SELECT ${tables.titles}.rowid AS rowid, d.popularity AS popularity,
                ${titleScore} + ${TITLE_MATCH_BOOST + EXACT_TITLE_BOOST} AS score
         FROM ${tables.titles} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.titles}.rowid
         WHERE ${tables.titles} MATCH ? AND ${tables.titles}.rowid = CAST(? AS INTEGER)`,
      ).get(titleExpression, missing[0]) as RankedRow | undefined);
      if (scoredExact !== undefined) {
        const popularity = connection.statement(`${index}\u0000popularity`, () => `SELECT popularity FROM ${tables.docs} WHERE rowid = ?`).pluck();
        takeExactTitles(retrieval, missing, scoredExact.score, (rowid) => popularity.get(rowid) as number);
      }
    }
    if (bodyWalkNeeded(retrieval, wanted)) {
      // Computed here, as a page that title matches fill needs no text score.
      const textRank = textRankOf(settings, index);
      // Body matches of a query of common words only are ordered by static rank alone, with no bm25 (see QueryPlan.common).
      const bodyRank = plan.common ? '0' : textRank;
      const bodyExpression = walkedExpression(plan, expression);
      // A partition that needs no documents filter is walked in FTS5 alone, popularity taken from the rowid: the
      // documents row per match cost a third of the walk. Its exact-title boost is not needed here: every document
      // whose whole title is the query is already a candidate, from the title matches or the exact-title lookup.
      const bareWalk = rankedRead(
        connection,
        `${index}\u0000bare-walk\u0000${bodyRank}`,
        () => `SELECT rowid, ${bodyRank} AS score FROM ${tables.fts} WHERE ${filterSql(tables.fts, NO_FILTER)} ORDER BY rowid ${BOUND_LIMIT}`,
        'rowid',
      );
      const filteredWalk = scoredWalk(bodyRank);
      const bodyWalks = ranges.map((range) =>
        filterNeeded(connection, index, query, range)
          ? filteredWalk([titleKey, bodyExpression, ...filters, ...range, BODY_CANDIDATES])
          : bareWalk([bodyExpression, ...range, BODY_CANDIDATES]),
      );
      takeBodyMatches(retrieval, bodyWalks);
      const phrase = phraseToWalk(retrieval, plan);
      if (phrase !== undefined) {
        const phraseWalk = connection.statement(`${index}\u0000phrase\u0000${filter.shape}`, () =>
          `SELECT ${tables.fts}.rowid FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid WHERE ${filterSql(tables.fts, filter)} ORDER BY ${tables.fts}.rowid ${BOUND_LIMIT}`,
        ).pluck();
        const phraseRows = walk((range) => phraseWalk.all(phrase, ...filters, ...range, PHRASE_CANDIDATES) as number[], PHRASE_CANDIDATES, (rowid) => rowid);
        // One statement scores them all: bm25 computes its IDF once per statement (reading every posting list of the
        // query), so the rowids are a filter on the walk (`+` keeps it from FTS5, which would restart per rowid).
        const unscored = takePhraseMatches(retrieval, phraseRows);
        if (unscored.length > 0) {
          const scored = rankedRead(connection, `${index}\u0000score-listed\u0000${textRank}`, () =>
            `SELECT ${tables.fts}.rowid AS rowid, d.popularity AS popularity,
                    ${textRank} + (d.exact_key = ?) * ${EXACT_TITLE_BOOST} AS score
             FROM ${tables.fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${tables.fts}.rowid
             WHERE ${tables.fts} MATCH ? AND ${tables.fts}.rowid >= CAST(? AS INTEGER) AND ${tables.fts}.rowid <= CAST(? AS INTEGER)
               AND +${tables.fts}.rowid IN (SELECT value FROM json_each(?))
             LIMIT ${PHRASE_CANDIDATES}`,
          );
          const scoredRows = scored([titleKey, expression, unscored[0], unscored[unscored.length - 1], JSON.stringify(unscored)]);
          takeScored(retrieval, scoredRows);
        }
      }
    }
  }
  const documents = readHits(connection, index, rankedPage(retrieval, sort, from, wanted), plan, highlight);
  const total = knownTotal(retrieval, totalUpTo) ?? countIn(connection, index, planCountExpression(plan) as string, query, totalUpTo + 1);
  return { documents, total: totalOf(total, totalUpTo), ...(plan.corrected === undefined || documents.length === 0 ? {} : { corrected: plan.corrected }) };
}
