import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { STEM_MARKER, analyzeDocument, exactKeyOf, isDocumentAnalysis, stemLanguageOf, stemLanguagesOf, stemOf, termsOf } from './index.js';
import { isOneByteString } from '../test-support/strings.js';

describe('analyzeDocument', () => {
  it('gives each field its terms, the title and text stems in the page language, and the title key', () => {
    const analysis = analyzeDocument({ title: 'Measuring getElementById', summary: 'Pages', body: 'measured pages', locale: 'en-US' });
    assert.deepEqual(analysis, {
      title: 'measuring getelementbyid get element by id',
      summary: 'pages',
      body: 'measured pages',
      titleStems: `${STEM_MARKER}measur`,
      textStems: `${STEM_MARKER}page ${STEM_MARKER}measur`,
      exactKey: 'measurgetelementbyid',
    });
    assert.equal(analyzeDocument({ title: 'Measuring', summary: '', body: '', locale: 'ja' }).titleStems, `${STEM_MARKER}measur`, 'English stems in a locale without a stemmer');
    const german = analyzeDocument({ title: 'Häuser properties', summary: '', body: '', locale: 'de-DE' });
    assert.deepEqual(german.titleStems.split(' '), [`${STEM_MARKER}haus`, `${STEM_MARKER}properti`], 'its own language, then English: once each');
    assert.equal(german.exactKey, 'hausproperti', 'the title key in the page language only');
    assert.ok(isDocumentAnalysis(analysis));
  });

  it('gives each field the terms termsOf reads, and the stems of its terms once each in the page languages (property)', () => {
    const word = fc.oneof(fc.constantFrom('Measuring', 'measured', 'pages', 'getElementById', 'Häuser', 'hauses', 'crème-brûlée', 'iperf3', '東京', 'x'), fc.string({ maxLength: 8 }));
    const text = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(text, text, text, fc.constantFrom('en-US', 'de', 'fr-FR', 'ja'), (title, summary, body, locale) => {
        const analysis = analyzeDocument({ title, summary, body, locale });
        const stems = (...texts: string[]) => {
          const tokens: string[] = [];
          for (const term of texts.flatMap((field) => termsOf(field))) {
            for (const language of stemLanguagesOf(locale)) {
              const stem = stemOf(language, term);
              if (stem !== term && !tokens.includes(STEM_MARKER + stem)) tokens.push(STEM_MARKER + stem);
            }
          }
          return tokens.join(' ');
        };
        assert.deepEqual(
          [analysis.title, analysis.summary, analysis.body, analysis.titleStems, analysis.textStems],
          [termsOf(title).join(' '), termsOf(summary).join(' '), termsOf(body).join(' '), stems(title), stems(summary, body)],
        );
      }),
      { numRuns: 500 },
    );
  });

  it('writes a field of any length whole, as a one-byte string when its terms are Latin-1 and joined from them otherwise', () => {
    const long = Array.from({ length: 30_000 }, (_, i) => `Word${i % 7} café ${i.toString(36)}`).join(' ');
    const analysis = analyzeDocument({ title: 'Crème brûlée', summary: 'Café 東京 ok', body: long, locale: 'fr' });
    assert.equal(analysis.body, termsOf(long).join(' '));
    assert.ok(analysis.body.length > 1 << 16, 'longer than the bytes it starts with');
    assert.ok(isOneByteString(analysis.body) && isOneByteString(analysis.title));
    assert.equal(analysis.summary, 'cafe 東京 ok');
  });

  it('keys a title the same up to word forms, splitting and case', () => {
    const english = stemLanguageOf('en');
    const key = exactKeyOf('getElementsByClassName', english);
    for (const text of ['get elements by class name', 'Get element by class names', 'get-elements-by-class-name']) assert.equal(exactKeyOf(text, english), key, text);
    assert.notEqual(exactKeyOf('elements by class name', english), key);
  });

  it('tells a well-formed analysis from anything else', () => {
    for (const value of [undefined, null, 'x', {}, { title: '', summary: '', body: '', titleStems: '', textStems: '' }, { title: 1, summary: '', body: '', titleStems: '', textStems: '', exactKey: '' }]) {
      assert.equal(isDocumentAnalysis(value), false, JSON.stringify(value));
    }
  });
});
