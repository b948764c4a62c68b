import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { parseManPage, unescape } from './groff.js';
import { manPageCorpus, manPageDocument, manPageFiles } from './manpages.js';
import { parseIndexJson } from '../../src/search/indexing/reader.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'manpages');
const fixture = (file: string) => readFileSync(join(FIXTURES, file));

describe('parseManPage', () => {
  it('takes the NAME line and the sections when the page is a translated one', () => {
    const page = parseManPage(fixture('zh_CN/man1/cut.1').toString('utf8'));
    assert.equal(page.name, 'cut - 从文件的每一行中移除某些段');
    assert.equal(page.alias, false);
    assert.ok(page.sections.length >= 4);
    assert.ok(page.sections.every((section) => section.heading !== ''));
    const text = page.sections.flatMap((section) => section.paragraphs).join('\n');
    assert.doesNotMatch(text, /\\f|\\-|^\./m);
  });

  it('joins lines without a space when both sides are written without spaces', () => {
    const page = parseManPage('.SH NAME\nx \\- y\n.SH 説明\nディレクトリの\n内容を表示\n.PP\nlist\nfiles');
    assert.deepEqual(page.sections, [{ heading: '説明', paragraphs: ['ディレクトリの内容を表示', 'list files'] }]);
  });

  it('marks a page that sources another as an alias', () => {
    assert.equal(parseManPage(fixture('ja/man1/rbash.1').toString('utf8')).alias, true);
  });

  it('resolves fonts, special characters and unicode escapes when unescaping', () => {
    assert.equal(unescape('\\fBls\\fP \\-l \\(em \\[u00E9]t\\(:e \\&. \\e'), 'ls -l — ét . \\');
    assert.equal(unescape('«\\ \\-\\ »'), '« - »');
  });
});

describe('manPageDocument', () => {
  it('gives an index.json document of the page when it is gzipped or not', () => {
    const raw = fixture('ko/man1/whatis.1');
    const plain = manPageDocument('ko', 'man1/whatis.1', raw);
    assert.deepEqual(manPageDocument('ko', 'man1/whatis.1.gz', gzipSync(raw)), plain);
    assert.ok(plain !== undefined);
    assert.match(plain.json.doc.title, /^whatis - /);
    assert.equal(plain.json.doc.summary, plain.json.doc.title.replace(/^whatis - /, ''));
    const read = parseIndexJson(`${plain.folder}/index.json`, Buffer.from(JSON.stringify(plain.json)));
    assert.ok('document' in read);
    assert.equal(read.document.locale, 'ko');
    assert.match(read.document.body, /\p{Script=Hangul}/u);
  });

  it('gives nothing for an alias', () => {
    assert.equal(manPageDocument('ja', 'man1/rbash.1', fixture('ja/man1/rbash.1')), undefined);
  });
});

describe('manPageCorpus', () => {
  it('reads every locale of the fixture, and leaves out a locale with too few pages', () => {
    assert.deepEqual(manPageFiles(FIXTURES, 'ja'), ['man1/cat.1', 'man1/rbash.1']);
    const all = manPageCorpus(FIXTURES, 1);
    assert.deepEqual(all.locales, ['zh-CN', 'ja', 'ko', 'de', 'fr']);
    assert.deepEqual(
      all.documents.map((document) => document.json.doc.title.split(' ')[0]),
      ['cut', 'cat', 'whatis', 'colrm', 'cat'],
    );
    const strict = manPageCorpus(FIXTURES, 2);
    assert.deepEqual(strict.locales, ['ko']);
    assert.ok(strict.missing.some((entry) => entry.locale === 'ja' && entry.package === 'manpages-ja' && entry.pages === 1));
  });
});
