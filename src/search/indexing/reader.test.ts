import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { isAppError } from '../../errors.js';
import { readBuild } from './read-pool.js';
import { parseIndexJson, readContentBuild, slugOf, walkIndexFiles, type ReadResult } from './reader.js';
import { writePages, writeRaw } from '../test-support/build-files.js';

const bytes = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const problem = (result: ReadResult) => ('problem' in result ? result.problem : undefined);

describe('parseIndexJson', () => {
  it('takes doc.url, else doc.mdn_url, else the folder path as identifier, lower-casing the id', () => {
    const withUrl = parseIndexJson('fr/a/index.json', bytes({ doc: { title: 'T', url: '/Plog/X', mdn_url: '/en-US/docs/Y' } }));
    const withMdnUrl = parseIndexJson('fr/a/index.json', bytes({ doc: { title: 'T', mdn_url: '/en-US/docs/Web/API' } }));
    const withFolder = parseIndexJson('fr/docs/Web/index.json', bytes({ doc: { title: 'T' } }));
    assert.deepEqual('document' in withUrl && [withUrl.document.id, withUrl.document.url, withUrl.document.locale, withUrl.document.slug], ['/plog/x', '/Plog/X', 'fr', 'Plog/X']);
    assert.deepEqual('document' in withMdnUrl && [withMdnUrl.document.id, withMdnUrl.document.slug], ['/en-us/docs/web/api', 'en-US/docs/Web/API']);
    assert.deepEqual('document' in withFolder && [withFolder.document.id, withFolder.document.locale, withFolder.document.slug], ['/fr/docs/web', 'fr', 'docs/Web']);
  });

  it('strips HTML of prose sections, keeps section titles, and ignores other block types', () => {
    const result = parseIndexJson('en-us/a/index.json', bytes({
      doc: {
        title: 'Fetch &amp; friends',
        summary: '<p>The <code>fetch()</code> method</p>',
        locale: 'en-US',
        popularity: 0.5,
        body: [
          { type: 'prose', value: { id: 'a', title: 'Syntax', content: '<p>call it</p><div class="warning">beware</div>' } },
          { type: 'browser_compatibility', value: { data: [1, 2, 3] } },
          { type: 'prose', value: { id: null, title: null, content: '<pre>x = 1</pre>' } },
        ],
      },
    }));
    assert.ok('document' in result);
    assert.deepEqual(result.document, {
      id: '/en-us/a',
      url: '/en-us/a',
      title: 'Fetch & friends',
      summary: 'The fetch() method',
      body: 'Syntax call it x = 1',
      popularity: 0.5,
      locale: 'en-US',
      slug: 'a',
    });
  });

  it('reports a problem for bad JSON, binary, invalid UTF-8, missing title and wrong types', () => {
    const cases: [Uint8Array, RegExp][] = [
      [bytes('{"doc": {'), /not valid JSON/],
      [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0x1a]), /not a text file/],
      [new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), /not valid UTF-8/],
      [bytes('[]'), /no doc object/],
      [bytes({ doc: 'x' }), /no doc object/],
      [bytes({ doc: { summary: 's' } }), /doc.title is missing/],
      [bytes({ doc: { title: '   ' } }), /doc.title is missing/],
      [bytes({ doc: { title: 42 } }), /doc.title is not a string/],
      [bytes({ doc: { title: 'T', body: 'text' } }), /doc.body is not an array/],
      [bytes({ doc: { title: 'T', body: [{ type: 'prose', value: { content: 7 } }] } }), /doc.body\[0\].value.content is not a string/],
      [bytes({ doc: { title: 'T', body: [null] } }), /doc.body\[0\] is not an object/],
      [bytes({ doc: { title: 'T', popularity: 'high' } }), /popularity/],
      [bytes({ doc: { title: 'T', popularity: 7 } }), /popularity/],
      [bytes({ doc: { title: 'T', url: ['/x'] } }), /doc.url is not a string/],
    ];
    for (const [input, expected] of cases) assert.match(problem(parseIndexJson('en-us/x/index.json', input)) ?? 'no problem', expected);
    assert.match(problem(parseIndexJson('index.json', bytes({ doc: { title: 'T' } }))) ?? '', /no locale/);
  });

  it('survives deep nesting anywhere in the file', () => {
    const deep = `{"doc": {"title": "Deep", "extra": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}`;
    const result = parseIndexJson('en-us/deep/index.json', bytes(deep));
    assert.equal('document' in result && result.document.title, 'Deep');
    const deepBody = `{"doc": {"title": "Deep", "body": [{"type": "prose", "value": {"content": ${'['.repeat(50_000)}${']'.repeat(50_000)}}}]}}`;
    assert.match(problem(parseIndexJson('en-us/deep/index.json', bytes(deepBody))) ?? '', /content is not a string/);
  });
});

describe('slugOf', () => {
  it('drops the leading slash, a leading locale segment and a trailing slash', () => {
    assert.equal(slugOf('/en-US/docs/Web/', 'en-us'), 'docs/Web');
    assert.equal(slugOf('/plog/hello', 'en-US'), 'plog/hello');
    assert.equal(slugOf('https://example.com/fr/docs/a%20b', 'fr'), 'docs/a b');
  });
});

describe('readContentBuild', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'sitestack-reader-'));
    writePages(root, [
      { folder: 'en-us/b', title: 'B' },
      { folder: 'en-us/a', title: 'A' },
      { folder: 'de/c', title: 'C' },
    ]);
    writeRaw(root, 'en-us/big', `{"doc": {"title": "Big", "body": [{"type": "prose", "value": {"content": "${'x'.repeat(10 * 1024 * 1024)}"}}]}}`);
    writeRaw(root, 'en-us/broken', '{');
    writeRaw(root, 'en-us/binary', new Uint8Array([0, 1, 2, 3, 255]));
    symlinkSync(join(root, 'en-us'), join(root, 'loop'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('walks in sorted order without following links, priority folder first', async () => {
    const all: string[] = [];
    for await (const path of walkIndexFiles(root)) all.push(path);
    assert.deepEqual(all, ['de/c/index.json', 'en-us/a/index.json', 'en-us/b/index.json', 'en-us/big/index.json', 'en-us/binary/index.json', 'en-us/broken/index.json']);
    const prioritised: string[] = [];
    for await (const path of walkIndexFiles(root, 'EN-US')) prioritised.push(path);
    assert.deepEqual(prioritised, [...all.slice(1), 'de/c/index.json']);
  });

  it('stops with a clear error naming the folder when a folder cannot be read', async () => {
    const walkMissing = async () => {
      for await (const _path of walkIndexFiles(join(root, 'missing'))) assert.fail('nothing to walk');
    };
    await assert.rejects(walkMissing(), (error) => isAppError(error) && error.code === 'BUILD_UNREADABLE' && /missing': ENOENT/.test(error.message));
    for (const workers of [0, 2]) {
      const readMissing = async () => {
        for await (const _result of readBuild(join(root, 'missing'), { workers })) assert.fail('nothing to read');
      };
      await assert.rejects(readMissing(), (error) => isAppError(error) && error.code === 'BUILD_UNREADABLE' && /missing': ENOENT/.test(error.message), `workers ${workers}`);
    }
  });

  it('runs its reading threads below the caller in scheduling priority when threads have one (Linux)', { skip: process.platform !== 'linux' && 'threads have a priority of their own on Linux only' }, async () => {
    /** The niceness in a thread's stat file: field 19, after the command name, which may hold spaces. */
    const nicenessIn = (path: string) => {
      const stat = readFileSync(path, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const niceness = () => readdirSync('/proc/self/task').map((task) => nicenessIn(`/proc/self/task/${task}/stat`));
    const lowered = Math.min(19, nicenessIn('/proc/thread-self/stat') + 3);
    for (const readerNiceness of [3, 0]) {
      let seen: number[] = [];
      for await (const _result of readBuild(root, { workers: 2, batchSize: 1, readerNiceness })) if (seen.length === 0) seen = niceness();
      assert.equal(seen.filter((value) => value === lowered).length, readerNiceness === 0 ? 0 : 2, `niceness ${readerNiceness}: ${seen.join(' ')}`);
    }
  });

  it('reports oversized, broken and binary files by path and reads the rest, inline or with threads', async () => {
    for (const workers of [0, 2]) {
      const results: ReadResult[] = [];
      for await (const result of readBuild(root, { workers, batchSize: 2 })) results.push(result);
      assert.deepEqual(
        results.map((result) => ('document' in result ? result.document.title : `${result.path}: ${result.problem.split(' (')[0]}`)),
        ['C', 'A', 'B', 'en-us/big/index.json: file is larger than 5242880 bytes', 'en-us/binary/index.json: not a text file', 'en-us/broken/index.json: not valid JSON: Expected property name or \'}\' in JSON at position 1'],
        `workers ${workers}`,
      );
    }
    const inline: ReadResult[] = [];
    for await (const result of readContentBuild(root, { maxFileBytes: 20 * 1024 * 1024 })) inline.push(result);
    assert.equal(inline.filter((result) => 'document' in result).length, 4);
  });
});
