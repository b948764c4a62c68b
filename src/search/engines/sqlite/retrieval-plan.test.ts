import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryPlan } from './search-expression.js';
import { partitionRange } from './static-rank.js';
import {
  BODY_CANDIDATES,
  TITLE_CANDIDATES,
  bodyWalkNeeded,
  exactTitleGaps,
  knownTotal,
  mergeWalks,
  newRetrieval,
  phraseToWalk,
  rankedPage,
  takeBodyMatches,
  takeExactTitles,
  takePhraseMatches,
  takePopularityWalks,
  takeScored,
  takeTitleMatches,
  totalOf,
  walkedExpression,
  type RankedRow,
} from './retrieval-plan.js';

/** The rowid of static rank `rank` in partition `partition`. */
const rowid = (partition: number, rank: number): number => partitionRange(partition)[0] + rank;
const row = (id: number, score = 1, popularity = 0.5): RankedRow => ({ rowid: id, popularity, score });
const rows = (count: number, partition = 0, score = 1): RankedRow[] => Array.from({ length: count }, (_, rank) => row(rowid(partition, rank), score));
const plan = (overrides: Partial<QueryPlan> = {}): QueryPlan => ({ words: ['grey', 'heron'], prefixLast: false, common: false, phrases: [[0, 2]], ...overrides });

describe('mergeWalks', () => {
  it('takes a single walk as it is, whatever the limit', () => {
    const walk = rows(5);
    assert.equal(mergeWalks([walk], 2, (r) => r.rowid), walk);
  });

  it('merges the walks of several partitions by static rank and keeps the first `limit`', () => {
    const a = [row(rowid(1, 0)), row(rowid(1, 4))];
    const b = [row(rowid(7, 1)), row(rowid(7, 2)), row(rowid(7, 9))];
    assert.deepEqual(mergeWalks([a, b], 4, (r) => r.rowid).map((r) => r.rowid), [rowid(1, 0), rowid(7, 1), rowid(7, 2), rowid(1, 4)]);
  });
});

describe('the retrieval plan', () => {
  it('walks the title matches and looks exact titles up apart only when they reach TITLE_CANDIDATES', () => {
    assert.equal(takeTitleMatches(newRetrieval(), rows(TITLE_CANDIDATES - 1)), false);
    const retrieval = newRetrieval();
    assert.equal(takeTitleMatches(retrieval, rows(TITLE_CANDIDATES)), true);
    assert.equal(retrieval.candidates.size, TITLE_CANDIDATES);
    assert.equal(retrieval.matching.size, TITLE_CANDIDATES);
    assert.equal(retrieval.everyMatch, undefined, 'title matches say nothing of the body matches');
  });

  it('gives the missing exact titles the score of an exact title among the title matches', () => {
    const retrieval = newRetrieval();
    const titles = [row(rowid(0, 0), 60), row(rowid(0, 1), 80)];
    takeTitleMatches(retrieval, titles);
    const gaps = exactTitleGaps(retrieval, titles, [rowid(0, 1), rowid(0, 5), rowid(0, 6)]);
    assert.deepEqual(gaps.missing, [rowid(0, 5), rowid(0, 6)]);
    assert.equal(gaps.scored, titles[1]);
    assert.equal(exactTitleGaps(retrieval, titles, [rowid(0, 5)]).scored, undefined, 'none of them a title match: the engine scores one');
    takeExactTitles(retrieval, gaps.missing, 80, () => 0.25);
    assert.deepEqual(retrieval.candidates.get(rowid(0, 6)), { rowid: rowid(0, 6), popularity: 0.25, score: 80 });
    assert.equal(retrieval.matching.has(rowid(0, 6)), false, 'found by title key, not by a walk within the filters');
  });

  it('walks the body only when the title matches do not fill the page', () => {
    const retrieval = newRetrieval();
    takeTitleMatches(retrieval, rows(10));
    assert.equal(bodyWalkNeeded(retrieval, 10), false);
    assert.equal(bodyWalkNeeded(retrieval, 11), true);
  });

  it('keeps the title score of a document the body walk finds again, and adds the others', () => {
    const retrieval = newRetrieval();
    takeTitleMatches(retrieval, [row(rowid(0, 1), 70)]);
    takeBodyMatches(retrieval, [[row(rowid(0, 1), 5), row(rowid(0, 2), 4)]]);
    assert.equal(retrieval.candidates.get(rowid(0, 1))?.score, 70);
    assert.equal(retrieval.candidates.get(rowid(0, 2))?.score, 4);
  });

  it('stops after the body walk when it found every match: no phrase walk, and the total is known', () => {
    const retrieval = newRetrieval();
    takeTitleMatches(retrieval, rows(3));
    takeBodyMatches(retrieval, [rows(40, 0), rows(2, 3)]);
    assert.equal(retrieval.everyMatch, 42);
    assert.equal(phraseToWalk(retrieval, plan()), undefined);
    assert.equal(knownTotal(retrieval, 1000), 42);
  });

  it('walks the whole phrases when the body walk reached BODY_CANDIDATES, unless every word is common', () => {
    const retrieval = newRetrieval();
    takeBodyMatches(retrieval, [rows(BODY_CANDIDATES, 0), rows(10, 2)]);
    assert.equal(retrieval.candidates.size, BODY_CANDIDATES, 'the merged walks are cut at BODY_CANDIDATES');
    assert.equal(retrieval.everyMatch, undefined);
    assert.equal(phraseToWalk(retrieval, plan()), '"grey heron"');
    assert.equal(phraseToWalk(retrieval, plan({ phrases: [] })), undefined, 'no phrase to walk');
    assert.equal(phraseToWalk(retrieval, plan({ common: true })), undefined);
  });

  it('scores only the phrase matches that are not candidates yet, in rowid order', () => {
    const retrieval = newRetrieval();
    takeBodyMatches(retrieval, [rows(BODY_CANDIDATES)]);
    const later = [rowid(0, 900), rowid(0, 300), rowid(0, 7)];
    assert.deepEqual(takePhraseMatches(retrieval, later), [rowid(0, 300), rowid(0, 900)]);
    assert.equal(retrieval.matching.size, BODY_CANDIDATES + 2);
    takeScored(retrieval, [row(rowid(0, 300), 9)]);
    assert.equal(retrieval.candidates.get(rowid(0, 300))?.score, 9);
  });

  it('matches a query of common words by its count expression', () => {
    assert.equal(walkedExpression(plan(), 'EXPR'), 'EXPR');
    assert.equal(walkedExpression(plan({ common: true }), 'EXPR'), '"grey" "heron"');
  });

  it('takes the page of popularity walks, and knows the total when every walk ended before the page', () => {
    const short = newRetrieval();
    takePopularityWalks(short, [rows(3, 0), rows(2, 5)], 2, 12);
    assert.deepEqual([...short.candidates.keys()], [rowid(0, 1), rowid(5, 1), rowid(0, 2)], 'from 2 of the merged walks');
    assert.equal(knownTotal(short, 1000), 5);
    const full = newRetrieval();
    takePopularityWalks(full, [rows(12, 0), rows(2, 5)], 0, 12);
    assert.equal(full.everyMatch, undefined);
    assert.equal(knownTotal(full, 1000), undefined, 'counted');
    assert.equal(knownTotal(full, 13), 14, 'more known matches than totalUpTo');
  });

  it('ranks the candidates by the sort and cuts the page, except by popularity where the walks cut it', () => {
    const retrieval = newRetrieval();
    takeScored(retrieval, [row(rowid(0, 0), 1, 0.9), row(rowid(0, 1), 30, 0.1), row(rowid(0, 2), 5, 0.5)]);
    assert.deepEqual(rankedPage(retrieval, 'relevance', 1, 3).map((r) => r.score), [5, 1]);
    assert.deepEqual(rankedPage(retrieval, 'best', 0, 1).map((r) => r.score), [30]);
    assert.deepEqual(rankedPage(retrieval, 'popularity', 1, 2).map((r) => r.popularity), [0.9, 0.5, 0.1]);
  });

  it('answers a total past totalUpTo as totalUpTo and gte', () => {
    assert.deepEqual(totalOf(1000, 1000), { value: 1000, relation: 'eq' });
    assert.deepEqual(totalOf(1001, 1000), { value: 1000, relation: 'gte' });
  });
});
