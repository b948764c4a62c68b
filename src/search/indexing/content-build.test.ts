import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isAppError } from '../../errors.js';
import { runContentBuild, splitSections, type PostIndexJson } from './content-build.js';
import { readContentBuild } from './reader.js';
import { startStubOrigin, type StubOrigin } from '../test-support/origin-stub.js';

describe('splitSections', () => {
  it('splits at top-level h2 headings, taking the id attribute or a slug of the text', () => {
    const html = '<p>Intro &amp; more</p><h2 id="setup">Setting up</h2><p>one</p><h2>Café <code>API</code> notes</h2><ul><li>two</li></ul>';
    assert.deepEqual(splitSections(html), [
      { id: '', title: '', content: '<p>Intro &amp; more</p>' },
      { id: 'setup', title: 'Setting up', content: '<p>one</p>' },
      { id: 'cafe_api_notes', title: 'Café API notes', content: '<ul><li>two</li></ul>' },
    ]);
  });

  it('keeps nested h2 inside their section and makes repeated ids unique', () => {
    const html = '<h2>Same</h2><div><h2>nested</h2></div><h2>Same</h2>x';
    assert.deepEqual(splitSections(html), [
      { id: 'same', title: 'Same', content: '<div><h2>nested</h2></div>' },
      { id: 'same_2', title: 'Same', content: 'x' },
    ]);
  });

  it('returns no section for empty HTML and one for HTML without headings', () => {
    assert.deepEqual(splitSections(''), []);
    assert.deepEqual(splitSections('<p>only</p>'), [{ id: '', title: '', content: '<p>only</p>' }]);
  });
});

describe('runContentBuild', () => {
  let dir: string;
  let origin: StubOrigin;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sitestack-content-build-'));
    origin = await startStubOrigin([
      { oid: 'hello-world', title: 'Hello <world>', body_html: '<p>Hi</p><h2 id="more">More</h2><p>Body</p>', summary: 'Greeting' },
      { oid: 'second', title: 'Second', body_html: '<p>Two</p>' },
    ]);
  });
  afterEach(async () => {
    await origin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (out: string, oid: string) => JSON.parse(readFileSync(join(out, 'en-us', 'plog', oid, 'index.json'), 'utf8')) as PostIndexJson;

  it('writes one index.json per post in the spec shape with normalised popularity', async () => {
    const out = join(dir, 'build');
    const report = await runContentBuild({ apiBase: origin.url, out, popularity: new Map([['/plog/hello-world', 0.25]]) });
    assert.equal(report.posts, 2);
    assert.deepEqual(read(out, 'hello-world'), {
      doc: {
        title: 'Hello <world>',
        summary: 'Greeting',
        url: '/plog/hello-world',
        locale: 'en-US',
        popularity: 0.25,
        pub_date: '2026-11-01T00:00:00Z',
        body: [
          { type: 'prose', value: { id: '', title: '', content: '<p>Hi</p>' } },
          { type: 'prose', value: { id: 'more', title: 'More', content: '<p>Body</p>' } },
        ],
      },
    });
    assert.equal(read(out, 'second').doc.popularity, 0);
    const documents = [];
    for await (const result of readContentBuild(out)) documents.push(result);
    assert.deepEqual(documents.map((result) => ('document' in result ? [result.document.id, result.document.slug, result.document.locale] : result.problem)), [
      ['/plog/hello-world', 'plog/hello-world', 'en-US'],
      ['/plog/second', 'plog/second', 'en-US'],
    ]);
  });

  it('replaces an earlier build, dropping posts that are gone, and skips a post deleted meanwhile', async () => {
    const out = join(dir, 'build');
    await runContentBuild({ apiBase: origin.url, out });
    origin.posts.pop();
    origin.posts.push({ oid: 'third', title: 'Third', body_html: '' });
    origin.failures.set('third', 404);
    const report = await runContentBuild({ apiBase: origin.url, out });
    assert.deepEqual(report.skipped, ['third']);
    assert.equal(existsSync(join(out, 'en-us', 'plog', 'second')), false);
    assert.equal(existsSync(join(out, 'en-us', 'plog', 'hello-world', 'index.json')), true);
  });

  it('fails and keeps the previous build whole when the origin errs', async () => {
    const out = join(dir, 'build');
    await runContentBuild({ apiBase: origin.url, out });
    origin.failures.set('second', 500);
    await assert.rejects(runContentBuild({ apiBase: origin.url, out }), (error) => isAppError(error) && error.code === 'ORIGIN_UNAVAILABLE');
    assert.equal(read(out, 'second').doc.title, 'Second');
    assert.deepEqual(readdirSync(dir).sort(), ['build']);
  });

  it('fails with UPSTREAM_ANSWER_TOO_LARGE, keeping the previous build, when an answer is past maxAnswerBytes', async () => {
    const out = join(dir, 'build');
    await runContentBuild({ apiBase: origin.url, out });
    origin.posts.push({ oid: 'long', title: 'Long', body_html: `<p>${'漢'.repeat(2000)}</p>` });
    await assert.rejects(runContentBuild({ apiBase: origin.url, out, maxAnswerBytes: 4000 }), (error) => isAppError(error) && error.code === 'UPSTREAM_ANSWER_TOO_LARGE' && error.status === 502);
    assert.equal(read(out, 'second').doc.title, 'Second');
    assert.deepEqual(readdirSync(dir).sort(), ['build']);
  });

  it('refuses to replace a folder that is not a content build', async () => {
    const out = join(dir, 'precious');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'keep me');
    await assert.rejects(runContentBuild({ apiBase: origin.url, out }), (error) => isAppError(error) && error.code === 'BUILD_OUT_NOT_OURS');
    assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'keep me');
  });

  it('fails clearly when the origin is unreachable or answers another shape', async () => {
    await assert.rejects(runContentBuild({ apiBase: 'http://127.0.0.1:9', out: join(dir, 'b') }), (error) => isAppError(error) && error.code === 'ORIGIN_UNAVAILABLE');
    origin.posts.push({ oid: '../escape', title: 'x', body_html: '' });
    await assert.rejects(runContentBuild({ apiBase: origin.url, out: join(dir, 'b') }), (error) => isAppError(error) && error.code === 'ORIGIN_BAD_RESPONSE');
    assert.deepEqual(readdirSync(dir).sort(), []);
  });
});
