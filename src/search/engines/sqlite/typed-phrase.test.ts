import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TITLE_MATCH_BOOST, newRetrieval } from './retrieval-plan.js';
import { TYPED_PHRASE_BOOST, rankedTitleMatch, takeTypedPhrase, typedPhraseUnscored, typedPhraseWalked } from './typed-phrase.js';

/** What popularity adds at most to a `best` score (see rankCandidates). */
const POPULARITY_WEIGHT = 10;

describe('typed phrase', () => {
  it('is walked for a query of two or more words, not when every word is common', () => {
    assert.equal(typedPhraseWalked({ typedPhrase: ['als', 'hash'], common: false }), true);
    assert.equal(typedPhraseWalked({ typedPhrase: ['und', 'die'], common: true }), false);
    assert.equal(typedPhraseWalked({ common: false }), false);
  });

  it('notes every holder as a match and answers those not yet candidates in rowid order', () => {
    const retrieval = newRetrieval();
    retrieval.candidates.set(5, { rowid: 5, popularity: 0, score: 1 });
    assert.deepEqual(typedPhraseUnscored(retrieval, [9, 5, 2]), [2, 9]);
    assert.deepEqual([...retrieval.matching].sort((a, b) => a - b), [2, 5, 9]);
  });

  it('takes a title match without its boost when the title lacks the dropped common words, and as before otherwise', () => {
    const match = { rowid: 1, popularity: 0, score: TITLE_MATCH_BOOST + 2, titleScore: 2, holdsDropped: false };
    assert.equal(rankedTitleMatch(match, ['als']).score, 2);
    assert.equal(rankedTitleMatch({ ...match, holdsDropped: true }, ['als']).score, TITLE_MATCH_BOOST + 4);
    assert.equal(rankedTitleMatch(match, undefined).score, TITLE_MATCH_BOOST + 2);
    assert.equal(rankedTitleMatch(match, []).score, TITLE_MATCH_BOOST + 2);
  });

  it('raises each candidate holding the phrase once, by less than a title match and more than popularity, and no other', () => {
    const retrieval = newRetrieval();
    retrieval.candidates.set(1, { rowid: 1, popularity: 0.5, score: TITLE_MATCH_BOOST + 3 });
    retrieval.candidates.set(2, { rowid: 2, popularity: 0.5, score: 2 });
    takeTypedPhrase(retrieval, [2, 2, 7]);
    assert.ok(TYPED_PHRASE_BOOST < TITLE_MATCH_BOOST && TYPED_PHRASE_BOOST > POPULARITY_WEIGHT);
    assert.deepEqual([...retrieval.candidates.values()], [
      { rowid: 1, popularity: 0.5, score: TITLE_MATCH_BOOST + 3 },
      { rowid: 2, popularity: 0.5, score: TYPED_PHRASE_BOOST + 2 },
    ]);
  });
});
