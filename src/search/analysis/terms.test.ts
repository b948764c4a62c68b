import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_QUERY_TERMS, MAX_TERM_LENGTH, fold, groupsOf, foldPhrase, indexedText, isWordCharacter, queryTerms, queryWords, termsOf, termsOfWord, WORD_SOURCE, wordsOf } from './index.js';
import { isOneByteString } from '../test-support/strings.js';

const TERM = /^[\p{L}\p{N}\p{Co}]+$/u;


describe('termsOf', () => {
  it('splits on everything but letters, digits and marks, and folds case and diacritics', () => {
    assert.deepEqual(termsOf('"title":NEAR(a* b) -x ^y Café 東京 🦄 x'), ['title', 'near', 'a', 'b', 'x', 'y', 'cafe', '東京', 'x']);
  });

  it('gives a compatibility form the words of its decomposition', () => {
    assert.deepEqual(termsOf('\u2474 \ufb01le İstanbul ℌ'), ['1', 'file', 'istanbul', 'h']);
    assert.deepEqual(termsOfWord('\u0301'), [], 'a word of marks only has no term');
  });

  it('cuts a term to MAX_TERM_LENGTH characters', () => {
    assert.deepEqual(termsOf('a'.repeat(100)), ['a'.repeat(MAX_TERM_LENGTH)]);
    assert.deepEqual(termsOf(`é${'𝒜'.repeat(100)}`).map((term) => Array.from(term).length), [MAX_TERM_LENGTH]);
  });

  it('holds every word of the folded text, each cut, and gives each piece between spaces its own terms (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 12 }), (text, pieces) => {
        const terms = termsOf(text);
        const cut = (term: string) => Array.from(term).slice(0, MAX_TERM_LENGTH).join('');
        const counts = new Map<string, number>();
        for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
        for (const { text: word } of wordsOf(text)) {
          for (const folded of fold(word).match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []) assert.ok(counts.has(cut(folded)), `${folded} of ${JSON.stringify(text)}`);
        }
        for (const term of terms) {
          assert.match(term, TERM);
          assert.ok(Array.from(term).length <= MAX_TERM_LENGTH);
        }
        assert.deepEqual(indexedText(text).split(' ').filter((term) => term !== ''), terms);
        assert.deepEqual(termsOf(pieces.join(' ')), pieces.flatMap((piece) => termsOfWord(piece)));
      }),
      { numRuns: 500 },
    );
  });

  it('reads plain words as splitting would: the whole of each group, then its parts (property)', () => {
    const character = fc.constantFrom('a', 'z', 'q', 'A', 'Z', '0', '9', '.', '-', '_', ':', ' ', '(', 'é', 'E\u0301', 'ß', 'İ', 'ﬁ', '⑴', '東', '𝒜', '\ud800');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: character, maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 })), (text) => {
        assert.deepEqual(termsOf(text), groupsOf(text).flatMap((group) => [group.whole, ...group.parts]));
      }),
      { numRuns: 2000 },
    );
  });

  it('splits a run it has split before the same way after its memory of runs filled up and was emptied', () => {
    // More distinct runs that are not plain words (accented, digits after letters) than the memory of split runs holds.
    const runs = Array.from({ length: 60_000 }, (_, i) => `Ré${i.toString(36)}Sumé`);
    const model = (text: string) => groupsOf(text).flatMap((group) => [group.whole, ...group.parts]);
    const text = runs.join(' ');
    assert.deepEqual(termsOf(text), model(text));
    const again = runs.slice(0, 50).join(', ');
    assert.deepEqual(termsOf(again), model(again));
  });

  it('gives terms of Latin-1 characters as one-byte strings when decomposing dropped their marks', () => {
    const terms = termsOf('Tréma naïve Straße façade crème-brûlée');
    assert.deepEqual(terms, ['trema', 'naive', 'straße', 'facade', 'cremebrulee', 'creme', 'brulee']);
    for (const term of terms) assert.ok(isOneByteString(term), term);
    assert.ok(isOneByteString(terms.join(' ')), 'joined, they stay one-byte');
    assert.ok(!isOneByteString(termsOf('café 東京').join(' ')), 'a term outside Latin-1 stays two-byte');
  });

  it('holds no ASCII character other than a-z and 0-9, so a tokenizer splitting on ASCII punctuation reads it back (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (text) => {
        for (const term of termsOf(text)) for (const character of term) if (character < '\u0080') assert.match(character, /[a-z0-9]/);
      }),
    );
  });
});

describe('wordsOf', () => {
  it('gives each word with where it stands', () => {
    assert.deepEqual([...wordsOf('Hé, 東京!')], [{ text: 'Hé', start: 0, end: 2 }, { text: '東京', start: 4, end: 6 }]);
  });

  it('answers every unit of the Basic Multilingual Plane as the word class does, asked once or again', () => {
    const word = new RegExp(`^${WORD_SOURCE.slice(0, -1)}$`, 'u');
    for (let code = 0x80; code < 0x10000; code++) {
      const character = String.fromCharCode(code);
      assert.equal(isWordCharacter(character), word.test(character), `U+${code.toString(16)}`);
      assert.equal(isWordCharacter(character), word.test(character), `U+${code.toString(16)} again`);
    }
  });

  it('agrees with isWordCharacter on every character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
        const inWords = new Set<number>();
        for (const word of wordsOf(text)) for (let at = word.start; at < word.end; at++) inWords.add(at);
        for (let at = 0; at < text.length; at++) {
          const character = String.fromCodePoint(text.codePointAt(at) as number);
          assert.equal(isWordCharacter(character), inWords.has(at), `at ${at}`);
          at += character.length - 1;
        }
      }),
    );
  });
});

describe('fold and foldPhrase', () => {
  it('fold decomposes, drops marks and lower-cases, keeping separators', () => {
    assert.equal(fold('Élan-VITAL ﬁ'), 'elan-vital fi');
  });

  it('foldPhrase also makes runs of spaces and control characters one space, trimmed', () => {
    assert.equal(foldPhrase('  Élan\tVITAL\u00a0\u0000 x '), 'elan vital x');
  });
});

describe('queryTerms', () => {
  it('gives the terms of the text, at most MAX_QUERY_TERMS', () => {
    assert.deepEqual(queryTerms('title:Alpha AND "beta*" NEAR(Café)'), ['title', 'alpha', 'and', 'beta', 'near', 'cafe']);
    assert.equal(queryTerms('w '.repeat(100)).length, MAX_QUERY_TERMS);
    assert.deepEqual(queryTerms('getElementById x'), ['getelementbyid', 'x']);
  });

  it('names the word each term was typed as', () => {
    assert.deepEqual(queryWords('Café \u2474x'), [{ term: 'cafe', parts: [], typed: 'Café', start: 0, end: 4 }, { term: '1x', parts: ['1', 'x'], typed: '\u2474x', start: 5, end: 7 }]);
  });

  it('yields only terms without syntax characters, bounded in count and length, for any input (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const terms = queryTerms(text);
        assert.deepEqual(terms, groupsOf(text).slice(0, MAX_QUERY_TERMS).map((group) => group.whole));
        for (const term of terms) assert.match(term, TERM);
      }),
    );
  });
});
