import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { englishLexicon, identifierParts, ingForm, isIdentifier, kindOf, otherForms, pastForm, qualityDocuments, sForm } from './quality-corpus.js';
import { parseIndexJson } from '../../src/search/indexing/reader.js';

const documents = (options: Parameters<typeof qualityDocuments>[0]) => [...qualityDocuments(options)];

describe('qualityDocuments', () => {
  it('gives the same corpus for the same seed, and another for another seed', () => {
    const first = documents({ documents: 40, seed: 5 });
    assert.deepEqual(documents({ documents: 40, seed: 5 }), first);
    assert.notDeepEqual(documents({ documents: 40, seed: 6 }), first);
  });

  it('has code identifiers of every style in titles and in the text, and titles distinct ignoring case', () => {
    const corpus = documents({ documents: 400 });
    const titles = corpus.map((document) => document.json.doc.title);
    assert.equal(new Set(titles.map((title) => title.toLowerCase())).size, titles.length);
    const kinds = new Set(corpus.map((document) => document.kind));
    for (const kind of ['prose', 'camelCase', 'PascalCase', 'dotted', 'snake_case', 'namespaced', 'letter-digit'] as const) assert.ok(kinds.has(kind), kind);
    for (const name of ['getElementById', 'Array.prototype.map', 'std::vector', 'iperf3', 'svg2png', 'rabin2']) assert.ok(titles.includes(name), name);
    for (const document of corpus) assert.equal(kindOf(document.json.doc.title), document.kind, document.json.doc.title);
    const text = corpus.map((document) => document.json.doc.body.map((section) => section.value.content).join('\n')).join('\n');
    assert.match(text, /<code>[a-z]+[A-Z]\w*\(\)<\/code>/);
    assert.match(text, /\b[a-z]+_[a-z]+\(/);
  });

  it('writes bodies of the configured size, of inflected English words', () => {
    const corpus = documents({ documents: 60, minBytes: 3_000, maxBytes: 30_000 });
    const sizes = corpus.map((document) => document.json.doc.body.reduce((sum, section) => sum + section.value.content.length, 0));
    for (const size of sizes) assert.ok(size >= 3_000 && size <= 30_000 + 4_000, `body of ${size} bytes`);
    assert.ok(Math.max(...sizes) > 15_000, 'some bodies are long');
    const words = new Set(corpus.flatMap((document) => document.json.doc.body.flatMap((section) => section.value.content.match(/[a-z]+/g) ?? [])));
    const { formsOf } = englishLexicon();
    const inflected = [...formsOf].flatMap(([lemma, forms]) => forms.filter((form) => form !== lemma && words.has(form)));
    assert.ok(inflected.length > 500, `${inflected.length} inflected forms`);
  });

  it('reads as index.json documents', () => {
    for (const { folder, json } of qualityDocuments({ documents: 20 })) {
      const read = parseIndexJson(`${folder}/index.json`, Buffer.from(JSON.stringify(json)));
      assert.ok('document' in read, folder);
      assert.equal(read.document.locale, 'en-US');
      assert.ok(read.document.body.length > 1_000);
    }
  });
});

describe('inflection and identifiers', () => {
  it('inflects by the simple English rules', () => {
    assert.deepEqual([sForm('tree'), sForm('box'), sForm('city'), sForm('key'), sForm('branch')], ['trees', 'boxes', 'cities', 'keys', 'branches']);
    assert.deepEqual([pastForm('bake'), pastForm('carry'), pastForm('stop'), pastForm('visit'), pastForm('play'), pastForm('fix')], ['baked', 'carried', 'stopped', 'visited', 'played', 'fixed']);
    assert.deepEqual([ingForm('bake'), ingForm('agree'), ingForm('stop'), ingForm('carry'), ingForm('open')], ['baking', 'agreeing', 'stopping', 'carrying', 'opening']);
    assert.deepEqual(otherForms('Planted').sort(), ['plant', 'planting', 'plants']);
    assert.deepEqual(otherForms('xyzzy'), []);
  });

  it('gives each form to one base word only', () => {
    const owners = new Map<string, string>();
    for (const [lemma, forms] of englishLexicon().formsOf) {
      for (const form of forms) {
        assert.ok(owners.get(form) === undefined, `${form}: ${owners.get(form)} and ${lemma}`);
        owners.set(form, lemma);
      }
    }
  });

  it('splits identifiers into their parts', () => {
    assert.deepEqual(identifierParts('getElementById'), ['get', 'element', 'by', 'id']);
    assert.deepEqual(identifierParts('XMLHttpRequest'), ['xml', 'http', 'request']);
    assert.deepEqual(identifierParts('Array.prototype.map'), ['array', 'prototype', 'map']);
    assert.deepEqual(identifierParts('std::unordered_map'), ['std', 'unordered', 'map']);
    assert.deepEqual(identifierParts('svg2png'), ['svg', '2', 'png']);
    assert.equal(isIdentifier('Planting apple trees'), false);
    assert.deepEqual(['getElementById', 'HTMLCanvasElement', 'os.path.join', 'read_csv', 'std::vector', 'rabin2'].map(kindOf), ['camelCase', 'PascalCase', 'dotted', 'snake_case', 'namespaced', 'letter-digit']);
  });
});
