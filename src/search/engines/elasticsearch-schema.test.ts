import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autocompletePrefix, AUTOCOMPLETE_MAX_GRAM, spliceSuggestions, textQuery } from './elasticsearch-schema.js';

describe('elasticsearch query policy', () => {
  it('sends folded words only when the text holds query syntax', () => {
    assert.deepEqual(textQuery({ index: 'i', text: '"*()' }), { match_none: {} });
  });

  it('cuts an autocomplete prefix to the indexed n-gram length when it is longer', () => {
    assert.equal(autocompletePrefix('  Élan  Vital '), 'elan vital');
    assert.equal(Array.from(autocompletePrefix('x'.repeat(200))).length, AUTOCOMPLETE_MAX_GRAM);
  });

  it('splices the best candidate of every misspelled word first, then single alternatives', () => {
    const text = 'flexbx grd layout';
    const entries = [
      { offset: 0, length: 6, options: [{ text: 'flexbox', score: 0.8 }, { text: 'flexbug', score: 0.6 }] },
      { offset: 7, length: 3, options: [{ text: 'grid', score: 0.7 }] },
      { offset: 11, length: 6, options: [] },
    ];
    assert.deepEqual(spliceSuggestions(text, entries, 5).map((alternative) => alternative.text), ['flexbox grid layout', 'flexbug grid layout']);
    assert.deepEqual(spliceSuggestions('fine words', [{ offset: 0, length: 4, options: [] }], 5), []);
    assert.equal(spliceSuggestions(text, entries, 1).length, 1);
  });
});
