import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANALYZERS, FOLDING_FILTERS, WORD_SOURCE, elasticsearchAnalysis } from './index.js';

describe('elasticsearchAnalysis', () => {
  it('tokenizes with the word pattern and folds with the folding filters, in every analyzer of text', () => {
    const analysis = elasticsearchAnalysis() as { tokenizer: Record<string, { pattern: string }>; analyzer: Record<string, { tokenizer: string; filter: string[] }> };
    const text = analysis.analyzer[ANALYZERS.text];
    assert.ok(text !== undefined);
    assert.equal(analysis.tokenizer[text.tokenizer]?.pattern, WORD_SOURCE);
    assert.deepEqual(text.filter, [...FOLDING_FILTERS]);
    assert.deepEqual(analysis.analyzer[ANALYZERS.phrase]?.filter, ['trim', ...FOLDING_FILTERS]);
  });

  it('keeps the caller own filters and analyzers beside its own', () => {
    const analysis = elasticsearchAnalysis({ filter: { edge: { type: 'edge_ngram' } }, analyzer: { mine: { type: 'custom', tokenizer: 'keyword' } } }) as Record<string, Record<string, unknown>>;
    assert.deepEqual(analysis['filter'], { edge: { type: 'edge_ngram' } });
    assert.ok(analysis['analyzer']?.['mine'] !== undefined && analysis['analyzer']?.[ANALYZERS.text] !== undefined);
  });
});
