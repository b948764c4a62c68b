import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bestMatch, DEFAULT_MATCH_POLICY, normaliseArtist, scoreCandidate, normaliseText, normaliseTitle, similarity, type Candidate } from './match.js';

const candidate = (title: string, artist: string): Candidate => ({ title, artist, url: `https://x/${encodeURIComponent(title)}`, image: null, price: null });
const words = fc.array(fc.constantFrom('love', 'night', 'rain', 'blue', 'moon', 'river', 'fire', 'heart', 'road', 'star'), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
const names = fc.array(fc.constantFrom('Ada', 'Béla', 'Chloé', 'Dmitri', 'Eun', 'Fatou', 'Gustav'), { minLength: 1, maxLength: 2 }).map((w) => w.join(' '));

/** A test of `normalise` in which each raw text must give its normalised form. */
function itNormalises(normalise: (text: string) => string, behaviour: string, examples: [raw: string, normalised: string][]): void {
  it(behaviour, () => {
    for (const [raw, normalised] of examples) assert.equal(normalise(raw), normalised, raw);
  });
}

describe('normaliseTitle', () => {
  itNormalises(normaliseTitle, 'drops case, accents, punctuation, parentheticals, remaster annotations and featured artists', [
    ['Hey Jude (Remastered 2015)', 'hey jude'],
    ['Yesterday - Remastered 2009', 'yesterday'],
    ['Señorita [feat. Someone]', 'senorita'],
    ['Old Town Road feat. Billy Ray Cyrus', 'old town road'],
    ["Sweet Child O' Mine", 'sweet child o mine'],
    ['Rock & Roll', 'rock and roll'],
    ['Stay With Me', 'stay with me'],
  ]);

  itNormalises(normaliseTitle, 'falls back to the whole title when it is only a parenthetical', [['(Untitled)', 'untitled']]);

  it('is idempotent for any text', () => {
    fc.assert(fc.property(fc.string(), (text) => normaliseText(normaliseText(text)) === normaliseText(text)));
  });
});

describe('normaliseArtist', () => {
  itNormalises(normaliseArtist, 'keeps the main credit without a leading "the"', [
    ['The Beatles', 'beatles'],
    ['Beyoncé feat. Jay-Z', 'beyonce'],
    ["Guns N' Roses", 'guns n roses'],
    ['Simon & Garfunkel', 'simon and garfunkel'],
  ]);
});

describe('similarity', () => {
  it('is 1 for equal texts, symmetric and between 0 and 1', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const ab = similarity(a, b);
        assert.equal(ab, similarity(b, a));
        assert.ok(ab >= 0 && ab <= 1);
        assert.equal(similarity(a, a), 1);
      }),
    );
  });
});

describe('bestMatch', () => {
  it('chooses the recording by the right artist when covers are listed before it', () => {
    const song = { name: 'Bohemian Rhapsody', artist: 'Queen' };
    const chosen = bestMatch(song, [
      candidate('Bohemian Rhapsody (Karaoke Version)', 'Party Tyme Karaoke'),
      candidate('Bohemian Rhapsody', 'The Muppets'),
      candidate('We Will Rock You', 'Queen'),
      candidate('Bohemian Rhapsody (Remastered 2011)', 'Queen'),
    ]);
    assert.equal(chosen?.title, 'Bohemian Rhapsody (Remastered 2011)');
  });

  it('answers null when no candidate is close in both title and artist', () => {
    assert.equal(bestMatch({ name: 'Imagine', artist: 'John Lennon' }, [candidate('Imagine', 'Imagine Dragons'), candidate('Jealous Guy', 'John Lennon')]), null);
    assert.equal(bestMatch({ name: 'Imagine', artist: 'John Lennon' }, []), null);
  });

  it("finds the song's own recording wherever it is listed and however it is spelt", () => {
    fc.assert(
      fc.property(words, names, fc.array(fc.tuple(words, names)), fc.nat(), (title, artist, others, at) => {
        const decoys = others.filter(([t, a]) => similarity(normaliseTitle(t), normaliseTitle(title)) < 0.8 || similarity(normaliseArtist(a), normaliseArtist(artist)) < 0.6);
        const own = candidate(`${title.toUpperCase()} (Remastered)`, artist.normalize('NFD'));
        const list = decoys.map(([t, a]) => candidate(t, a));
        list.splice(at % (list.length + 1), 0, own);
        assert.equal(bestMatch({ name: title, artist }, list), own);
      }),
    );
  });

  it('chooses a candidate scoring at least as well as every other accepted one', () => {
    fc.assert(
      fc.property(words, names, fc.array(fc.tuple(words, names), { maxLength: 8 }), (title, artist, rows) => {
        const song = { name: title, artist };
        const list = [...rows.map(([t, a]) => candidate(t, a)), candidate(title, artist.split(' ')[0] ?? artist)];
        const accepted = list.map((c) => scoreCandidate(song, c)).filter((s) => s.title >= DEFAULT_MATCH_POLICY.minTitle && s.artist >= DEFAULT_MATCH_POLICY.minArtist);
        const chosen = bestMatch(song, list);
        if (accepted.length === 0) return assert.equal(chosen, null);
        assert.ok(chosen !== null);
        const chosenScore = scoreCandidate(song, chosen).score;
        for (const other of accepted) assert.ok(chosenScore >= other.score);
      }),
    );
  });
});
