import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TITLE_MATCH_BOOST, newRetrieval } from './retrieval-plan.js';
import { TYPED_PHRASE_BOOST, holdsEveryWord, rankedTitleMatch, takeTypedPhrase, typedPhraseUnscored, typedPhraseWalked } from './typed-phrase.js';

/** What popularity adds at most to a `best` score (see rankCandidates). */
const POPULARITY_WEIGHT = 10;

describe('typed phrase', () => {
  it('is walked for a query of two or more words, not when every word is common nor when full titles fill the page', () => {
    assert.equal(typedPhraseWalked({ typedPhrase: ['als', 'hash'], common: false }, 9, 10), true);
    assert.equal(typedPhraseWalked({ typedPhrase: ['als', 'hash'], common: false }, 10, 10), false);
    assert.equal(typedPhraseWalked({ typedPhrase: ['und', 'die'], common: true }, 0, 10), false);
    assert.equal(typedPhraseWalked({ common: false }, 0, 10), false);
  });

  it('notes every holder as a match and answers those not yet candidates in rowid order', () => {
    const retrieval = newRetrieval();
    retrieval.candidates.set(5, { rowid: 5, popularity: 0, score: 1 });
    assert.deepEqual(typedPhraseUnscored(retrieval, [9, 5, 2]), [2, 9]);
    assert.deepEqual([...retrieval.matching].sort((a, b) => a - b), [2, 5, 9]);
  });

  it('takes a title match without its boost when the title lacks the dropped common words, and as before otherwise', () => {
    const match = { rowid: 1, popularity: 0, score: TITLE_MATCH_BOOST + 2, titleScore: 2, holdsDropped: false };
    assert.deepEqual([holdsEveryWord(match, ['als']), holdsEveryWord({ ...match, holdsDropped: true }, ['als']), holdsEveryWord(match, undefined)], [false, true, true]);
    assert.equal(rankedTitleMatch(match, ['als']).score, 2);
    assert.equal(rankedTitleMatch({ ...match, holdsDropped: true }, ['als']).score, TITLE_MATCH_BOOST + 4);
    assert.equal(rankedTitleMatch(match, undefined).score, TITLE_MATCH_BOOST + 2);
    assert.equal(rankedTitleMatch(match, []).score, TITLE_MATCH_BOOST + 2);
  });

  it('raises each candidate holding the phrase once, by less than a title match and more than popularity, but no title holding every word', () => {
    const retrieval = newRetrieval();
    retrieval.candidates.set(1, { rowid: 1, popularity: 0.5, score: TITLE_MATCH_BOOST + 3 });
    retrieval.candidates.set(2, { rowid: 2, popularity: 0.5, score: 2 });
    retrieval.candidates.set(3, { rowid: 3, popularity: 0.5, score: TITLE_MATCH_BOOST + 1 });
    takeTypedPhrase(retrieval, [2, 2, 3, 7], new Set([3]));
    assert.ok(TYPED_PHRASE_BOOST < TITLE_MATCH_BOOST && TYPED_PHRASE_BOOST > POPULARITY_WEIGHT);
    assert.deepEqual([...retrieval.candidates.values()], [
      { rowid: 1, popularity: 0.5, score: TITLE_MATCH_BOOST + 3 },
      { rowid: 2, popularity: 0.5, score: TYPED_PHRASE_BOOST + 2 },
      { rowid: 3, popularity: 0.5, score: TITLE_MATCH_BOOST + 1 },
    ]);
  });
});
