import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { foldPhrase } from '../analysis/index.js';
import { laterWordStarts } from './autocomplete.js';

describe('laterWordStarts', () => {
  it('gives the folded title from each later word when the title has several words', () => {
    assert.deepEqual(laterWordStarts('Measuring server-side  Rendering'), ['server-side rendering', 'side rendering', 'rendering']);
    assert.deepEqual(laterWordStarts('(Draft) Élan'), ['draft) elan', 'elan'], 'a first word after punctuation is a later start');
  });

  it('gives nothing when the title has one word or none', () => {
    assert.deepEqual(laterWordStarts('nginx'), []);
    assert.deepEqual(laterWordStarts('  -- '), []);
  });

  it('gives a start that every later word of the title begins when words are drawn at random (property)', () => {
    const word = fc.stringMatching(/^[a-zA-Zé]{1,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 6 }), fc.constantFrom(' ', '-', ': '), (words, separator) => {
        const starts = laterWordStarts(words.join(separator));
        for (const later of words.slice(1)) assert.ok(starts.some((start) => start.startsWith(foldPhrase(later))), later);
      }),
    );
  });
});
