import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STEM_LANGUAGES, stemLanguageOf } from '../../analysis/index.js';
import { ANALYZERS, stemmedAnalyzer, stemmedSearchAnalyzer } from './analysis-settings.js';
import {
  AUTOCOMPLETE_MAX_GRAM,
  AUTOCOMPLETE_SORT,
  FIELD_BOOSTS,
  FUZZINESS,
  POPULARITY_FACTOR,
  TEXT_FIELDS,
  TYPED_PHRASE_BOOST,
  TYPO_TITLE_BOOST,
  autocompletePrefix,
  autocompleteQuery,
  indexDefinition,
  queryLanguages,
  rankedSearch,
  spliceSuggestions,
  stemmedCopy,
  textQuery,
} from './schema.js';
import { titleWords } from './documents.js';

type Json = Record<string, unknown>;

const english = stemLanguageOf('en') ?? assert.fail('english');
const german = stemLanguageOf('de') ?? assert.fail('german');

/** Every object in a JSON tree, depth first. */
function* objects(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const item of value) yield* objects(item);
  else if (typeof value === 'object' && value !== null) {
    yield value as Json;
    for (const item of Object.values(value)) yield* objects(item);
  }
}

/** The `multi_match` clauses of a query, by kind: exact, stemmed (by language) and fuzzy. */
function multiMatches(query: unknown): { fields: string[]; fuzziness?: string; prefix_length?: number; type: string; query: string }[] {
  return [...objects(query)].flatMap((node) => (node['multi_match'] === undefined ? [] : [node['multi_match'] as never]));
}

/** Field → boost of `field^boost` specs. */
const boosts = (fields: readonly string[]) => new Map(fields.map((spec) => [spec.split('^')[0] ?? spec, Number(spec.split('^')[1] ?? 1)]));

describe('elasticsearch index definition', () => {
  const definition = indexDefinition() as unknown as { settings: { analysis: Json }; mappings: { properties: Record<string, Json>; _source: Json } };
  const { properties } = definition.mappings;
  const analysis = definition.settings.analysis as { analyzer: Record<string, Json>; normalizer: Record<string, Json> };

  it('refers only to analyzers and normalizers its settings define', () => {
    const named: string[] = [];
    for (const node of objects(definition.mappings)) {
      for (const key of ['analyzer', 'search_analyzer']) if (typeof node[key] === 'string') named.push(node[key] as string);
      if (typeof node['normalizer'] === 'string') assert.ok(analysis.normalizer[node['normalizer'] as string] !== undefined, node['normalizer'] as string);
    }
    assert.ok(named.length > 50);
    for (const name of named) assert.ok(analysis.analyzer[name] !== undefined, `analyzer ${name} is not defined`);
  });

  it('analyses title, summary, body and the suggester words with the text analyzer, unstemmed', () => {
    for (const field of [...TEXT_FIELDS, 'words']) {
      assert.equal(properties[field]?.['analyzer'], ANALYZERS.text, field);
      assert.equal(properties[field]?.['search_analyzer'], ANALYZERS.search, field);
    }
    for (const field of TEXT_FIELDS) assert.deepEqual(properties[field]?.['copy_to'], ['words']);
  });

  it('has a stemmed copy of the text fields per stem language, analysed by its stemmed analyzer, out of the vocabulary and of _source', () => {
    const stemmed = Object.keys(properties).filter((name) => name.startsWith('stemmed_'));
    assert.deepEqual(stemmed.sort(), STEM_LANGUAGES.map((language) => `stemmed_${language.name}`).sort());
    for (const language of STEM_LANGUAGES) {
      const object = properties[`stemmed_${language.name}`] as { type: string; properties: Record<string, Json> };
      assert.equal(object.type, 'object');
      assert.deepEqual(Object.keys(object.properties), [...TEXT_FIELDS]);
      for (const field of TEXT_FIELDS) {
        assert.deepEqual(object.properties[field], { type: 'text', analyzer: stemmedAnalyzer(language), search_analyzer: stemmedSearchAnalyzer(language), index_options: 'freqs' });
      }
    }
    assert.deepEqual(definition.mappings._source, { excludes: ['stemmed_*', 'title_words'] });
  });

  it('fills the stemmed copies of a document in its locale language and in English', () => {
    const document = { title: 'Häuser', summary: 'S', body: 'B' };
    const englishCopy = { 'stemmed_english.title': 'Häuser', 'stemmed_english.summary': 'S', 'stemmed_english.body': 'B' };
    assert.deepEqual(stemmedCopy({ ...document, locale: 'de-AT' }), { 'stemmed_german.title': 'Häuser', 'stemmed_german.summary': 'S', 'stemmed_german.body': 'B', ...englishCopy });
    assert.deepEqual(stemmedCopy({ ...document, locale: 'en-US' }), englishCopy);
    assert.deepEqual(stemmedCopy({ ...document, locale: 'ja' }), englishCopy, 'English alone where the locale has no stemmer');
  });
});

describe('elasticsearch query policy', () => {
  it('sends folded words only when the text holds query syntax', () => {
    assert.deepEqual(textQuery({ index: 'i', text: '"*()' }), { match_none: {} });
  });

  it('stems in the languages of the query locales and English, or without any, of en and the given locales', () => {
    assert.deepEqual(queryLanguages(undefined), [english]);
    assert.deepEqual(queryLanguages([]), [english]);
    assert.deepEqual(queryLanguages(undefined, ['de', 'ja', 'en-GB']), [english, german]);
    assert.deepEqual(queryLanguages(['de-DE', 'DE', 'ja']), [german, english]);
    assert.deepEqual(queryLanguages(['ja']), [english]);
  });

  it('matches every word exactly, and in the stemmed fields of the query languages with lower boosts', () => {
    const query = textQuery({ index: 'i', text: 'measuring tape', locales: ['en-US', 'de'] });
    // The typed phrase is one clause of its own (see the next test).
    const clauses = multiMatches(query).filter((clause) => clause.type !== 'phrase');
    const exact = clauses.filter((clause) => clause.fields.every((field) => !field.startsWith('stemmed_')));
    assert.deepEqual(exact.map((clause) => [clause.query, clause.type]), [['measuring', 'cross_fields'], ['tape', 'cross_fields']]);
    const exactBoosts = boosts(exact[0]?.fields ?? []);
    assert.deepEqual(Object.fromEntries(exactBoosts), FIELD_BOOSTS);
    for (const language of ['english', 'german']) {
      const stemmed = clauses.filter((clause) => clause.fields.every((field) => field.startsWith(`stemmed_${language}.`)));
      assert.deepEqual(stemmed.map((clause) => clause.query), ['measuring', 'tape'], language);
      for (const [field, boost] of boosts(stemmed[0]?.fields ?? [])) {
        const exactBoost = exactBoosts.get(field.split('.')[1] ?? '') ?? assert.fail(field);
        assert.ok(boost > 0 && boost < exactBoost, `${field} ${boost} < ${exactBoost}`);
      }
    }
    assert.equal(clauses.length, 6);
    assert.ok(!JSON.stringify(query).includes('fuzziness'));
    const unfiltered = multiMatches(textQuery({ index: 'i', text: 'measuring' }));
    assert.deepEqual(unfiltered.map((clause) => clause.fields[0]?.split('^')[0]), ['title', 'stemmed_english.title']);
    assert.deepEqual(multiMatches(textQuery({ index: 'i', text: 'measuring', locales: ['ja'] })).map((clause) => clause.fields[0]?.split('^')[0]), ['title', 'stemmed_english.title'], 'English stems in every locale');
  });

  it('requires every word, the last also as a prefix, and scores the phrase and the exact title on top', () => {
    const query = textQuery({ index: 'i', text: 'service work' }, { languages: [] }) as { bool: { must: Json[]; should: Json[] } };
    assert.deepEqual(query.bool.must[0], { multi_match: { query: 'service', type: 'cross_fields', fields: ['title^10', 'summary^3', 'body^1'] } });
    const last = query.bool.must[1] as { bool: { should: Json[]; minimum_should_match: number } };
    assert.equal(last.bool.minimum_should_match, 1);
    assert.deepEqual(last.bool.should.slice(1), TEXT_FIELDS.map((field) => ({ prefix: { [field]: { value: 'work', boost: FIELD_BOOSTS[field] } } })));
    assert.deepEqual(query.bool.should.map((clause) => Object.keys(clause)[0]), ['term', 'constant_score', 'match_phrase', 'match_phrase']);
    assert.deepEqual(query.bool.should[1], { constant_score: { filter: { multi_match: { query: 'service work', type: 'phrase', fields: [...TEXT_FIELDS] } }, boost: TYPED_PHRASE_BOOST } });
    assert.ok(TYPED_PHRASE_BOOST > POPULARITY_FACTOR && TYPED_PHRASE_BOOST + POPULARITY_FACTOR < TYPO_TITLE_BOOST);
    const one = textQuery({ index: 'i', text: 'service' }, { languages: [] }) as { bool: { should: Json[] } };
    assert.ok(!JSON.stringify(one).includes('constant_score'), 'one word is no phrase');
  });

  it('matches an identifier typed with its connectors as its whole or the phrase of its segments', () => {
    const clauses = multiMatches(textQuery({ index: 'i', text: 'document.getElementById getElementById' }, { languages: [] }));
    assert.deepEqual(clauses.map((clause) => [clause.query, clause.type]), [
      ['documentgetelementbyid', 'cross_fields'],
      ['document getElementById', 'phrase'],
      ['getelementbyid', 'cross_fields'],
      ['documentgetelementbyid getelementbyid', 'phrase'],
    ]);
    assert.deepEqual(clauses[1]?.fields, ['title^10', 'summary^3', 'body^1']);
  });

  it('adds fuzzy matching on the exact fields for the words given, below the exact and stem boosts', () => {
    const plain = textQuery({ index: 'i', text: 'flexbx grid layuot' });
    const query = textQuery({ index: 'i', text: 'flexbx grid layuot' }, { fuzzy: new Set([0, 2]) });
    const fuzzy = multiMatches(query).filter((clause) => clause.fuzziness !== undefined);
    assert.deepEqual(fuzzy.map((clause) => [clause.query, clause.type, clause.fuzziness, clause.prefix_length]), [
      ['flexbx', 'best_fields', FUZZINESS, 1],
      ['layuot', 'best_fields', FUZZINESS, 1],
    ]);
    assert.equal(FUZZINESS, 'AUTO:4,8');
    const stemBoosts = boosts(multiMatches(plain).find((clause) => clause.fields[0]?.startsWith('stemmed_'))?.fields ?? []);
    for (const [field, boost] of boosts(fuzzy[0]?.fields ?? [])) {
      assert.ok(boost > 0 && boost < (stemBoosts.get(`stemmed_english.${field}`) ?? 0) && boost < FIELD_BOOSTS[field as keyof typeof FIELD_BOOSTS], field);
    }
    assert.equal(multiMatches(plain).filter((clause) => clause.fuzziness !== undefined).length, 0);
    // Each word stays required: a fuzzy word matches itself, its stems or its neighbours.
    assert.equal((query as { bool: { must: unknown[] } }).bool.must.length, 3);
  });

  it('leaves out the dropped words, splits the phrase around them and keeps the prefix for the last word typed', () => {
    const exact = (word: string) => ({ multi_match: { query: word, type: 'cross_fields', fields: ['title^10', 'summary^3', 'body^1'] } });
    const query = textQuery({ index: 'i', text: 'grid zzq layout flexbox qqq' }, { languages: [], dropped: new Set([1, 4]) }) as { bool: { must: Json[]; should: Json[] } };
    assert.deepEqual(query.bool.must, [exact('grid'), exact('layout'), exact('flexbox')]);
    assert.deepEqual(query.bool.should, [
      { term: { 'title.exact': { value: 'grid layout flexbox', boost: 100 } } },
      { match_phrase: { title: { query: 'layout flexbox', boost: 10 } } },
      { match_phrase: { body: { query: 'layout flexbox', boost: 2 } } },
    ]);
    assert.deepEqual(textQuery({ index: 'i', text: 'grid zzq' }, { dropped: new Set([0, 1]) }), { match_none: {} });
    const fuzzy = textQuery({ index: 'i', text: 'zzq flexbx' }, { languages: [], dropped: new Set([0]), fuzzy: new Set([1]) });
    assert.ok(JSON.stringify(fuzzy).includes('"query":"flexbx","type":"best_fields"') && !JSON.stringify(fuzzy).includes('zzq'));
  });

  it('carries the same text query under every sort', () => {
    const query = { index: 'i', text: 'flexbx', locales: ['de'] };
    const text = textQuery(query, { fuzzy: new Set([0]) });
    const best = rankedSearch(query, 'best', { fuzzy: new Set([0]) }).query as { function_score: { query: unknown } };
    assert.deepEqual(best.function_score.query, text);
    assert.deepEqual(rankedSearch(query, 'relevance', { fuzzy: new Set([0]) }).query, text);
    assert.deepEqual(rankedSearch(query, 'popularity', { fuzzy: new Set([0]) }).query, text);
  });

  it('cuts an autocomplete prefix to the indexed n-gram length when it is longer', () => {
    assert.equal(autocompletePrefix('  Élan  Vital '), 'elan vital');
    assert.equal(Array.from(autocompletePrefix('x'.repeat(200))).length, AUTOCOMPLETE_MAX_GRAM);
  });

  it('sends autocomplete as constant prefix clauses on the title start and its word starts, sorted by score then popularity', () => {
    assert.deepEqual(autocompleteQuery('ngi', ['fr']), {
      bool: {
        should: [{ prefix: { 'title.prefix': { value: 'ngi', boost: 2 } } }, { prefix: { title_words: { value: 'ngi' } } }],
        minimum_should_match: 1,
        filter: [{ terms: { locale: ['fr'] } }],
      },
    });
    assert.deepEqual(AUTOCOMPLETE_SORT, [{ _score: { order: 'desc' } }, { popularity: { order: 'desc' } }]);
    assert.deepEqual(indexDefinition().mappings?.properties?.['title_words'], { type: 'keyword', doc_values: false });
  });

  it('files the folded title from its start and each later word, cut to the n-gram length, when a document is sent', () => {
    assert.deepEqual(titleWords('Measuring  Server-side'), ['measuring server-side', 'server-side', 'side']);
    assert.deepEqual(titleWords('nginx'), ['nginx']);
    assert.equal(Array.from(titleWords(`a ${'x'.repeat(200)}`)[1] ?? '').length, AUTOCOMPLETE_MAX_GRAM);
  });

  it('splices the best candidate of every misspelled word first, then single alternatives', () => {
    const text = 'flexbx grd layout';
    const entries = [
      { offset: 0, length: 6, options: [{ text: 'flexbox', score: 0.8, freq: 3 }, { text: 'flexbug', score: 0.6, freq: 1 }] },
      { offset: 7, length: 3, options: [{ text: 'grid', score: 0.7, freq: 5 }] },
      { offset: 11, length: 6, options: [] },
    ];
    assert.deepEqual(spliceSuggestions(text, entries, 5).map((alternative) => alternative.text), ['flexbox grid layout', 'flexbug grid layout']);
    assert.deepEqual(spliceSuggestions('fine words', [{ offset: 0, length: 4, options: [] }], 5), []);
    assert.equal(spliceSuggestions(text, entries, 1).length, 1);
  });
});
