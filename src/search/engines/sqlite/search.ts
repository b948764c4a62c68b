import { BOUND_LIMIT } from '../../../sqlite-limit.js';
import { exactKeyOf, foldPhrase, stemLanguageOf, termsOf } from '../../analysis/index.js';
import { clampInteger } from '../validation.js';
import type { SearchQuery, SearchResult } from '../types.js';
import type { Connection } from './connection.js';
import { tablesOf } from './tables.js';
import { partitionOf, type RowidRange } from './static-rank.js';
import { rowidRanges } from './partitions.js';
import { cannotMatch, planOf, textRankOf, titleRankOf, type RankSettings } from './text-plan.js';
import { planCountExpression, searchExpression, typedPhraseExpression } from './search-expression.js';
import { TYPED_PHRASE_CANDIDATES, holdsEveryWord, rankedTitleMatch, takeTypedPhrase, typedPhraseUnscored, typedPhraseWalked } from './typed-phrase.js';
import { BODY_CANDIDATES, EXACT_TITLE_BOOST, EXACT_TITLE_SCORE, PHRASE_CANDIDATES, TITLE_CANDIDATES, TITLE_MATCH_BOOST, TOTAL_CAP, bodyWalkNeeded, exactTitleGaps, knownTotal, mergeWalks, newRetrieval, phraseToWalk, rankedPage, rowidOfRanked, takeBodyMatches, takeExactTitles, takePhraseMatches, takePopularityWalks, takeScored, takeTitleMatches, totalOf, walkedExpression, type RankedRow } from './retrieval-plan.js';
import { NO_FILTER, countIn, docFilter, filterNeeded, filterSql, rangeTables, rankedRead } from './walks.js';
import { readHits } from './hits.js';

/** Whether a title holds every one of the dropped common words (none dropped: false). */
function droppedWordsIn(dropped: readonly string[] | undefined): (title: string) => boolean {
  if (dropped === undefined || dropped.length === 0) return () => false;
  return (title) => {
    const terms = new Set(termsOf(title));
    return dropped.every((word) => terms.has(word));
  };
}

/**
 * Top-k retrieval, as retrieval-plan.ts decides it: the walks run here. A query goes one way down the engine's
 * modules: its words are planned against the index (text-plan.ts), written as FTS5 expressions (search-expression.ts),
 * walked as retrieval-plan.ts decides (walks.ts), and the page is read and highlighted (hits.ts).
 */
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
  // A title that is the query as typed, signs included, ranks above one that differs by signs only (`clang`, `clang++`).
  const literalKey = foldPhrase(plan.corrected ?? query.text);
  const wanted = from + size;
  const retrieval = newRetrieval();
  /** The candidates whose title holds every word typed (see holdsEveryWord). */
  let fullTitles = new Set<number>();
  // Statements are per partition: each range is one partition's full-text tables (see rangeTables).
  const key = (name: string, range: RowidRange) => `${index}\u0000${name}\u0000${partitionOf(range[0])}`;
  /** A walk of a range's full-text table joined with the documents rows, scored by `score` of its table. */
  const scoredWalk = (score: (fts: string) => string, range: RowidRange) => {
    const { fts } = rangeTables(index, range);
    return rankedRead(connection, key(`walk\u0000${score(fts)}\u0000${filter.shape}`, range), () =>
      `SELECT ${fts}.rowid AS rowid, d.popularity AS popularity,
              ${score(fts)} + ${EXACT_TITLE_SCORE} AS score
       FROM ${fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${fts}.rowid
       WHERE ${filterSql(fts, filter)}
       ORDER BY ${fts}.rowid ${BOUND_LIMIT}`,
    );
  };
  const textRank = (fts: string) => textRankOf(settings, fts);
  /**
   * The rowids of the first `limit` matches of a phrase within the filters, in static-rank order; in FTS5 alone where
   * the partition needs no documents filter (see bareWalk).
   */
  const matchesOf = (phrase: string, limit: number): number[] =>
    walk((range) => {
      const { fts } = rangeTables(index, range);
      if (!filterNeeded(connection, index, query, range)) {
        return connection.statement(key('bare-phrase', range), () => `SELECT rowid FROM ${fts} WHERE ${filterSql(fts, NO_FILTER)} ORDER BY rowid ${BOUND_LIMIT}`)
          .pluck().all(phrase, ...range, limit) as number[];
      }
      return connection.statement(key(`phrase\u0000${filter.shape}`, range), () =>
        `SELECT ${fts}.rowid FROM ${fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${fts}.rowid WHERE ${filterSql(fts, filter)} ORDER BY ${fts}.rowid ${BOUND_LIMIT}`,
      ).pluck().all(phrase, ...filters, ...range, limit) as number[];
    }, limit, (rowid) => rowid);
  /**
   * Takes listed rowids (ascending) as candidates scored by the search expression. One statement per partition scores
   * them all: bm25 computes its IDF once per statement (reading every posting list of the query), so the rowids are a
   * filter on the walk (`+` keeps it from FTS5, which would restart per rowid).
   */
  const scoreListed = (unscored: readonly number[]) => {
    for (const range of ranges) {
      const listed = unscored.filter((rowid) => rowid >= range[0] && rowid <= range[1]);
      if (listed.length === 0) continue;
      const { fts } = rangeTables(index, range);
      const scored = rankedRead(connection, key('score-listed', range), () =>
        `SELECT ${fts}.rowid AS rowid, d.popularity AS popularity,
                ${textRank(fts)} + ${EXACT_TITLE_SCORE} AS score
         FROM ${fts} CROSS JOIN ${tables.docs} d ON d.rowid = ${fts}.rowid
         WHERE ${fts} MATCH ? AND ${fts}.rowid >= CAST(? AS INTEGER) AND ${fts}.rowid <= CAST(? AS INTEGER)
           AND +${fts}.rowid IN (SELECT value FROM json_each(?))
         LIMIT ${PHRASE_CANDIDATES + TYPED_PHRASE_CANDIDATES}`,
      );
      takeScored(retrieval, scored([titleKey, literalKey, expression, listed[0], listed[listed.length - 1], JSON.stringify(listed)]));
    }
  };
  if (sort === 'popularity') {
    const walks = ranges.map((range) => scoredWalk(textRank, range)([titleKey, literalKey, expression, ...filters, ...range, wanted]));
    takePopularityWalks(retrieval, walks, from, wanted);
  } else {
    // As in the body, a query of common words scores its title matches without bm25: they come in popularity order,
    // the exact title first, and no IDF is read from posting lists that hold most of the titles.
    const titleScore = (titles: string) => (plan.common ? '0' : titleRankOf(settings, titles));
    const titleExpression = walkedExpression(plan, searchExpression(plan) as string);
    const titleRows = (range: RowidRange) => {
      const { titles } = rangeTables(index, range);
      return connection.statement(key(`titles\u0000${plan.common}\u0000${filter.shape}`, range), () =>
        `SELECT ${titles}.rowid, d.popularity, ${titleScore(titles)} + ${TITLE_MATCH_BOOST} + ${EXACT_TITLE_SCORE}, ${titleScore(titles)}, d.title
         FROM ${titles} CROSS JOIN ${tables.docs} d ON d.rowid = ${titles}.rowid
         WHERE ${filterSql(titles, filter)}
         ORDER BY ${titles}.rowid ${BOUND_LIMIT}`,
      ).raw();
    };
    const holdsDropped = droppedWordsIn(plan.dropped);
    const found = walk(
      (range) => (titleRows(range).all(titleKey, literalKey, titleExpression, ...filters, ...range, TITLE_CANDIDATES) as [number, number, number, number, string][])
        .map(([rowid, popularity, score, ownScore, title]) => ({ rowid, popularity, score, titleScore: ownScore, holdsDropped: holdsDropped(title) })),
      TITLE_CANDIDATES,
      rowidOfRanked,
    );
    const titleMatches = found.map((match) => rankedTitleMatch(match, plan.dropped));
    fullTitles = new Set(found.filter((match) => holdsEveryWord(match, plan.dropped)).map(rowidOfRanked));
    if (takeTitleMatches(retrieval, titleMatches)) {
      const exact = connection.statement(`${index}\u0000exact-title\u0000${filter.shape}`, () =>
        `SELECT d.rowid FROM ${tables.docs} d WHERE d.exact_key = ? AND ${filter.sql} ORDER BY d.rowid ${BOUND_LIMIT}`,
      ).pluck().all(titleKey, ...filters, wanted) as number[];
      const gaps = exactTitleGaps(retrieval, titleMatches, exact);
      const missing = gaps.missing;
      const first = missing[0];
      let scoredExact = gaps.scored;
      if (scoredExact === undefined && first !== undefined) {
        const range: RowidRange = [first, first];
        const { titles } = rangeTables(index, range);
        scoredExact = connection.statement(key(`title-score\u0000${plan.common}`, range), () =>
          `SELECT ${titles}.rowid AS rowid, d.popularity AS popularity,
                  ${titleScore(titles)} + ${TITLE_MATCH_BOOST + EXACT_TITLE_BOOST} AS score
           FROM ${titles} CROSS JOIN ${tables.docs} d ON d.rowid = ${titles}.rowid
           WHERE ${titles} MATCH ? AND ${titles}.rowid = CAST(? AS INTEGER)`,
        ).get(titleExpression, first) as RankedRow | undefined;
      }
      if (scoredExact !== undefined) {
        const popularity = connection.statement(`${index}\u0000popularity`, () => `SELECT popularity FROM ${tables.docs} WHERE rowid = ?`).pluck();
        takeExactTitles(retrieval, missing, scoredExact.score, (rowid) => popularity.get(rowid) as number);
        for (const rowid of missing) fullTitles.add(rowid);
      }
    }
    if (bodyWalkNeeded(retrieval, wanted)) {
      // Body matches of a query of common words only are ordered by static rank alone, with no bm25 (see QueryPlan.common).
      const bodyRank = (fts: string) => (plan.common ? '0' : textRank(fts));
      const bodyExpression = walkedExpression(plan, expression);
      // A partition that needs no documents filter is walked in FTS5 alone, popularity taken from the rowid: the
      // documents row per match cost a third of the walk. Its exact-title boost is not needed here: every document
      // whose whole title is the query is already a candidate, from the title matches or the exact-title lookup.
      const bareWalk = (range: RowidRange) => {
        const { fts } = rangeTables(index, range);
        return rankedRead(
          connection,
          key(`bare-walk\u0000${plan.common}`, range),
          () => `SELECT rowid, ${bodyRank(fts)} AS score FROM ${fts} WHERE ${filterSql(fts, NO_FILTER)} ORDER BY rowid ${BOUND_LIMIT}`,
          'rowid',
        );
      };
      const bodyWalks = ranges.map((range) =>
        filterNeeded(connection, index, query, range)
          ? scoredWalk(bodyRank, range)([titleKey, literalKey, bodyExpression, ...filters, ...range, BODY_CANDIDATES])
          : bareWalk(range)([bodyExpression, ...range, BODY_CANDIDATES]),
      );
      takeBodyMatches(retrieval, bodyWalks);
      // The typed phrase walked below is the plan's one phrase when no word was dropped.
      const phrase = plan.dropped === undefined && plan.typedPhrase !== undefined ? undefined : phraseToWalk(retrieval, plan);
      if (phrase !== undefined) scoreListed(takePhraseMatches(retrieval, matchesOf(phrase, PHRASE_CANDIDATES)));
    }
    if (typedPhraseWalked(plan, fullTitles.size, wanted)) {
      const holders = matchesOf(typedPhraseExpression(plan) as string, TYPED_PHRASE_CANDIDATES);
      scoreListed(typedPhraseUnscored(retrieval, holders));
      takeTypedPhrase(retrieval, holders, fullTitles);
    }
  }
  const documents = readHits(connection, index, rankedPage(retrieval, sort, from, wanted), plan, highlight);
  const total = knownTotal(retrieval, totalUpTo) ?? countIn(connection, index, planCountExpression(plan) as string, query, totalUpTo + 1);
  return { documents, total: totalOf(total, totalUpTo), ...(plan.corrected === undefined || documents.length === 0 ? {} : { corrected: plan.corrected }) };
}
