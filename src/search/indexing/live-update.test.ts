import { describe, it, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAppError } from '../../errors.js';
import { postIndexJson, type PostDetail } from './content-build.js';
import { SqliteEngine } from '../engines/sqlite/engine.js';
import { createLiveUpdater, liveDocumentId, liveDocumentOf } from './live-update.js';
import { parseIndexJson } from './reader.js';
import { runIndexer } from './indexer.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-live-update-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const post = (oid: string, title: string, words: string): PostDetail => ({
  oid,
  title,
  summary: `About <em>${title}</em>`,
  body_html: `<p>${words} opens.</p><div class="hidden">Secretword</div><h2 id="later">Later</h2><p>${words} closes &amp; ends.</p>`,
  pub_date: '2026-11-20T00:00:00.000Z',
});

/** A live index built the way `sitestack index` builds one, from a content build of `posts`. */
async function liveIndex(posts: readonly PostDetail[]): Promise<{ engine: SqliteEngine; root: string }> {
  const dir = tempDir();
  const root = join(dir, 'build');
  for (const item of posts) {
    const folder = join(root, 'en-us', 'plog', item.oid);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'index.json'), JSON.stringify(postIndexJson(item, 'en-US', new Map([[`/plog/${item.oid}`, 0.5]]))));
  }
  const engine = new SqliteEngine({ path: join(dir, 'search.sqlite') });
  cleanups.push(() => engine.close());
  await runIndexer({ engine, root, prefix: 'site_docs' });
  return { engine, root };
}

const titlesFound = async (engine: SqliteEngine, text: string) =>
  (await engine.search({ index: 'site_docs', text })).documents.map((hit) => hit.title);

describe('liveDocumentOf', () => {
  it('makes the document a content build and an index run make, when given the same post and popularity', async () => {
    const item = post('same-doc', 'Same <b>document</b>', 'Walrus');
    const { root } = await liveIndex([item]);
    const path = 'en-us/plog/same-doc/index.json';
    const built = parseIndexJson(path, readFileSync(join(root, path)));
    assert.ok('document' in built);
    assert.deepEqual(liveDocumentOf(item, 'en-US', () => 0.5), built.document);
    assert.equal(liveDocumentId('Same-Doc'), built.document.id);
  });

  it('gives no document for a post the reader would skip', () => {
    assert.equal(liveDocumentOf(post('untitled', '  ', 'Words'), 'en-US', () => 0), undefined);
  });
});

describe('createLiveUpdater', () => {
  it('makes an edited post findable by its new words only, in search, suggestions and autocomplete', async () => {
    const { engine } = await liveIndex([post('edited', 'Marmoset notes', 'Lanternfish'), post('other', 'Other page', 'Filler')]);
    const update = createLiveUpdater({ engine, prefix: 'site_docs', popularityOf: () => 0.5 });
    assert.deepEqual(await titlesFound(engine, 'marmoset'), ['Marmoset notes']);

    const report = await update([{ oid: 'edited', post: post('edited', 'Quokkabelle notes', 'Driftwood') }]);
    assert.deepEqual(report.indexed, ['/plog/edited']);
    assert.deepEqual(await titlesFound(engine, 'quokkabelle'), ['Quokkabelle notes']);
    assert.deepEqual(await titlesFound(engine, 'driftwood'), ['Quokkabelle notes']);
    assert.deepEqual(await titlesFound(engine, 'marmoset'), []);
    assert.deepEqual(await titlesFound(engine, 'lanternfish'), []);
    assert.deepEqual(await titlesFound(engine, 'secretword'), [], 'hidden blocks stay out, as in an index run');
    const matches = await engine.autocomplete({ index: 'site_docs', prefix: 'Quokka' });
    assert.deepEqual(matches.map((match) => match.title), ['Quokkabelle notes']);
    assert.deepEqual(await engine.autocomplete({ index: 'site_docs', prefix: 'Marmo' }), []);
    const suggestions = await engine.suggest({ index: 'site_docs', text: 'quokabelle' });
    assert.deepEqual(suggestions.map((suggestion) => suggestion.text), ['quokkabelle']);
    assert.deepEqual(await engine.suggest({ index: 'site_docs', text: 'marmoste' }), [], 'a word no document holds is not suggested');
  });

  it('removes a deleted post from search and autocomplete, and counts it out', async () => {
    const { engine } = await liveIndex([post('deleted', 'Pangolin almanac', 'Saltmarsh'), post('kept', 'Kept page', 'Saltmarsh')]);
    const update = createLiveUpdater({ engine, prefix: 'site_docs' });
    const report = await update([{ oid: 'deleted', post: undefined }]);
    assert.deepEqual(report.removed, ['/plog/deleted']);
    assert.deepEqual(await titlesFound(engine, 'saltmarsh'), ['Kept page']);
    assert.equal(await engine.count({ index: 'site_docs', text: 'saltmarsh' }), 1);
    assert.deepEqual(await engine.autocomplete({ index: 'site_docs', prefix: 'Pangolin' }), []);
  });

  it('adds a new post and applies several changes in one call', async () => {
    const { engine } = await liveIndex([post('first', 'First page', 'Alpha')]);
    const update = createLiveUpdater({ engine, prefix: 'site_docs' });
    await update([
      { oid: 'first', post: undefined },
      { oid: 'second', post: post('second', 'Second page', 'Beta') },
    ]);
    assert.deepEqual(await titlesFound(engine, 'page'), ['Second page']);
  });

  it('refuses, for the outbox to retry, when no index is live under the alias', async () => {
    const engine = new SqliteEngine({ path: join(tempDir(), 'search.sqlite') });
    cleanups.push(() => engine.close());
    const update = createLiveUpdater({ engine, prefix: 'site_docs' });
    await assert.rejects(update([{ oid: 'any', post: post('any', 'Any', 'Words') }]), (error) => isAppError(error) && error.code === 'SEARCH_INDEX_MISSING');
  });
});
