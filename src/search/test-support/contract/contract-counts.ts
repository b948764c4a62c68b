import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { stemLanguagesOf, stemOf } from '../../analysis/index.js';
import { editDistance, spellable } from '../../policy/spelling.js';
import { doc } from './contract-support.js';
import type { IndexedDocument, SearchEngine } from '../../engines/types.js';

/**
 * The contract of totals: for any query, page, sort and filter over random pages, `total` is the exact count of the
 * matching pages (relation eq) up to `totalUpTo`, or a true lower bound (gte), and `count` agrees. The matching pages
 * come from a model of the rules every engine shares (words, prefixes, other forms and typos). Run by
 * engineContractTests; `forget` tells it an index the test deleted itself.
 */
export function exactCountTests(context: {
  engine: () => SearchEngine;
  indexWith: (documents: IndexedDocument[]) => Promise<string>;
  forget: (index: string) => void;
  languageAnalysis: boolean;
}): void {
  const { languageAnalysis } = context;
  it('reports the exact count with relation eq, or a true lower bound with gte, for any query, page, sort and filter', async () => {
    // Words none of which starts another: a last word matched as a prefix then finds what the whole word finds, and
    // the query words of the corpus mean the same in every engine.
    const vocabulary = ['measuring', 'kestrel', 'falcon', 'heron', 'otter', 'zebra', 'café', 'pelican', 'wombat', 'quokka'];
    const queryWords = [...vocabulary, 'Measuring', 'CAFE', 'gazelle', 'tapir', 'mea', 'measu', 'kes', 'caf', 'wom'];
    const word = fc.oneof({ arbitrary: fc.constant('measuring'), weight: 2 }, { arbitrary: fc.constantFrom(...vocabulary), weight: 3 });
    const words = (maxLength: number, minLength = 0) => fc.array(word, { minLength, maxLength }).map((list) => list.join(' '));
    const page = fc.record({
      title: words(3, 1),
      summary: words(2),
      body: words(6),
      locale: fc.constantFrom('en-US', 'fr', 'de'),
      section: fc.constantFrom('docs/web', 'docs/css', 'blog'),
      popularity: fc.constantFrom(0, 0.2, 0.5, 0.9, 1),
    });
    // Small corpora, and some past the candidate cut-offs of an engine that walks the first matches only.
    const corpus = fc.oneof({ arbitrary: fc.array(page, { maxLength: 25 }), weight: 3 }, { arbitrary: fc.array(page, { minLength: 240, maxLength: 280 }), weight: 1 });
    const query = fc.record({
      text: fc.array(fc.constantFrom(...queryWords), { minLength: 1, maxLength: 3 }).map((list) => list.join(' ')),
      sort: fc.constantFrom('best', 'relevance', 'popularity') as fc.Arbitrary<'best' | 'relevance' | 'popularity'>,
      size: fc.integer({ min: 1, max: 12 }),
      from: fc.integer({ min: 0, max: 30 }),
      totalUpTo: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
      locales: fc.subarray(['en-US', 'FR', 'de']),
      slugPrefixes: fc.subarray(['docs/web', 'DOCS/css', 'blog', 'docs']),
    });
    const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    /**
     * Whether a document term matches a query word: the same term, or, with language analysis, another form of it — a
     * term whose stem in a language of the document is the word's stem in a language of the query (stemLanguagesOf).
     */
    const sameWord = (word: string, term: string, documentLocale: string, queryLocales: readonly string[]) => {
      if (term === word) return true;
      if (!languageAnalysis) return false;
      const termStems = stemLanguagesOf(documentLocale).map((language) => stemOf(language, term)).filter((stem) => stem !== term);
      return queryLocales.some((locale) =>
        stemLanguagesOf(locale).some((language) => {
          const wordStem = stemOf(language, word);
          return term === wordStem || termStems.includes(wordStem);
        }),
      );
    };
    await fc.assert(
      fc.asyncProperty(corpus, fc.array(query, { minLength: 1, maxLength: 8 }), async (pages, queries) => {
        const documents = pages.map((fields, i) =>
          doc(`d${i}`, fields.title, { summary: fields.summary, body: fields.body, locale: fields.locale, slug: `${fields.section}/d${i}`, popularity: fields.popularity }),
        );
        const index = await context.indexWith(documents);
        const documentTerms = new Map<IndexedDocument, string[]>();
        try {
          for (const { text, sort, size, from, totalUpTo, locales, slugPrefixes } of queries) {
            const words = text.split(' ').map(fold);
            const last = words.length - 1;
            const termsOf = (document: IndexedDocument) => {
              let terms = documentTerms.get(document);
              if (terms === undefined) documentTerms.set(document, (terms = fold(`${document.title} ${document.summary} ${document.body}`).split(' ')));
              return terms;
            };
            const queryLocales = locales.length > 0 ? locales : documents.map((other) => other.locale);
            // The model is asked the same questions for every document: each answer is worked out once per query.
            const answers = new Map<string, boolean>();
            const once = (key: string, answer: () => boolean) => {
              let known = answers.get(key);
              if (known === undefined) answers.set(key, (known = answer()));
              return known;
            };
            const holds = (document: IndexedDocument, word: string, position: number) =>
              once(`holds\u0000${document.id}\u0000${word}\u0000${position}`, () =>
                termsOf(document).some((term) => (position === last && term.startsWith(word)) || sameWord(word, term, document.locale, queryLocales)));
            // Held by a page the query could find: the engine plans a word by the pages of the locales it searches.
            const searchable = documents.filter((document) => locales.length === 0 || locales.some((locale) => locale.toLowerCase() === document.locale.toLowerCase()));
            const heldAnywhere = (word: string, position: number) =>
              once(`anywhere\u0000${word}\u0000${position}`, () => searchable.some((other) => holds(other, word, position)));
            // With language analysis, a word no page of the query's locales holds in any form matches the terms one edit away (two from 8
            // characters, counting the longer word). Without, none: no query word here has a neighbour by the count
            // of the Elasticsearch engine, which counts the word typed (`caf` is not one edit from `cafe` there).
            const neighbour = (word: string, term: string) => {
              const longer = Math.max(Array.from(word).length, Array.from(term).length);
              const distance = editDistance(word, term, 2);
              return distance > 0 && distance <= (longer >= 8 ? 2 : longer >= 4 ? 1 : 0);
            };
            const matches = (document: IndexedDocument, word: string, position: number) =>
              holds(document, word, position) ||
              (languageAnalysis && spellable(word) && !heldAnywhere(word, position) && termsOf(document).some((term) => neighbour(word, term)));
            // A word no page of the query's locales holds in any form is left out while another word matches.
            const every = words.map((_, position) => position);
            const held = every.filter((position) => searchable.some((document) => matches(document, words[position] as string, position)));
            const required = held.length > 0 ? held : every;
            const matching = documents.filter((document) => {
              return (
                required.every((position) => matches(document, words[position] as string, position)) &&
                (locales.length === 0 || locales.some((locale) => locale.toLowerCase() === document.locale.toLowerCase())) &&
                (slugPrefixes.length === 0 || slugPrefixes.some((prefix) => document.slug.startsWith(prefix.toLowerCase())))
              );
            });
            const filter = { index, text, locales, slugPrefixes };
            const label = JSON.stringify({ text, sort, size, from, totalUpTo, locales, slugPrefixes, matching: matching.length });
            const result = await context.engine().search({ ...filter, sort, size, from, totalUpTo });
            assert.equal(await context.engine().count(filter), matching.length, label);
            const cap = totalUpTo ?? 1000;
            assert.deepEqual(result.total, matching.length <= cap ? { value: matching.length, relation: 'eq' } : { value: result.total.value, relation: 'gte' }, label);
            assert.ok(result.total.value <= matching.length, label);
            const matchingIds = new Set(matching.map((document) => document.id));
            assert.ok(result.documents.length <= size && result.documents.every((hit) => matchingIds.has(hit.id)), label);
          }
        } finally {
          await context.engine().deleteIndex(index);
          context.forget(index);
        }
      }),
      { numRuns: 30 },
    );
  });
}
