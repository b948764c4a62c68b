import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { isAppError } from '../../errors.js';
import type { SqliteEngine } from '../engines/sqlite/engine.js';
import type { Health, IndexedDocument, SearchEngine } from '../engines/types.js';
import { runIndexer, summarizeRun } from './indexer.js';
import { writePages, writeRaw } from '../test-support/build-files.js';
import { engineInFreshFolder, type EngineFolder } from '../test-support/sqlite-engine.js';

const at = new Date(Date.UTC(2026, 10, 21, 5, 6, 7));

/** The real engine with its health forced, as a cluster in trouble would report it. */
function withHealth(engine: SearchEngine, health: Health): SearchEngine {
  return new Proxy(engine, {
    get(target, property, receiver) {
      if (property === 'health') return async () => health;
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The real engine, recording the ids of every bulk call in order. */
function recordingBulk(engine: SearchEngine, ids: string[]): SearchEngine {
  return new Proxy(engine, {
    get(target, property, receiver) {
      if (property === 'bulk') {
        return (index: string, documents: readonly IndexedDocument[]) => {
          ids.push(...documents.map((document) => document.id));
          return target.bulk(index, documents);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const hasCode = (code: string) => (error: unknown) => isAppError(error) && error.code === code;

describe('runIndexer', () => {
  let folder: EngineFolder;
  let root: string;
  let engine: SqliteEngine;

  beforeEach(() => {
    folder = engineInFreshFolder('sitestack-indexer-');
    ({ engine } = folder);
    root = join(folder.dir, 'build');
  });
  afterEach(() => folder.close());

  const titles = async (text: string) => (await engine.search({ index: 'docs', text, size: 100 })).documents.map((hit) => hit.title).sort();

  it('creates a timestamped index, fills it and makes the alias live when the build is read (none → alias live)', async () => {
    writePages(root, [
      { folder: 'en-us/docs/a', title: 'Alpha page', body: 'shared <b>word</b>' },
      { folder: 'fr/docs/b', title: 'Beta page', body: 'shared word', url: '/fr/docs/B' },
    ]);
    const report = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    assert.equal(report.index, 'docs_20261121050607');
    assert.equal(report.ok, true);
    assert.equal(report.aliasLive, true);
    assert.equal(report.documents, 2);
    assert.deepEqual(await engine.listIndices('docs_'), [{ name: 'docs_20261121050607', aliases: ['docs'], docCount: 2 }]);
    assert.deepEqual(await titles('shared'), ['Alpha page', 'Beta page']);
    const [beta] = (await engine.search({ index: 'docs', text: 'beta' })).documents;
    assert.deepEqual([beta?.id, beta?.url, beta?.locale, beta?.slug], ['/fr/docs/b', '/fr/docs/B', 'fr', 'docs/B']);
    const [alpha] = (await engine.search({ index: 'docs', text: 'alpha' })).documents;
    assert.deepEqual([alpha?.id, alpha?.locale, alpha?.slug], ['/en-us/docs/a', 'en-us', 'docs/a']);
    assert.match(summarizeRun(report), /^full run: 2 documents into docs_20261121050607 \(alias docs\), 0 failed, 0 bad files, [\d.]+ s, [\d,]+ docs\/s$/);
  });

  it('stops with an error and creates nothing when health is red (none → none)', async () => {
    writePages(root, [{ folder: 'en-us/a', title: 'A' }]);
    await assert.rejects(runIndexer({ engine: withHealth(engine, 'red'), root, prefix: 'docs', workers: 0 }), hasCode('SEARCH_UNHEALTHY'));
    assert.deepEqual(await engine.listIndices('docs'), []);
  });

  it('indexes when health is yellow', async () => {
    writePages(root, [{ folder: 'en-us/a', title: 'A' }]);
    const report = await runIndexer({ engine: withHealth(engine, 'yellow'), root, prefix: 'docs', workers: 0 });
    assert.equal(report.aliasLive, true);
  });

  it('moves the alias to a new index and deletes the old one when a second run follows, even in the same second', async () => {
    await firstRun('First version', 'en-us/a');
    rebuild(() => writePages(root, [{ folder: 'en-us/a', title: 'Second version' }]));
    const report = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    assert.equal(report.index, 'docs_20261121050607_2');
    assert.deepEqual(report.deletedIndices, ['docs_20261121050607']);
    assert.deepEqual(await engine.listIndices('docs_'), [{ name: 'docs_20261121050607_2', aliases: ['docs'], docCount: 1 }]);
    assert.deepEqual(await titles('version'), ['Second version']);
  });

  it('leaves the alias and deletes the new index when items fail, unless within --max-failures', async () => {
    await firstRun('Old kestrel', 'en-us/a');
    rebuild(() =>
      writePages(root, [
        { folder: 'en-us/a', title: 'New kestrel' },
        { folder: 'en-us/long', title: 'Too long an id', url: `/${'x'.repeat(600)}` },
      ]),
    );
    const failed = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    assert.equal(failed.ok, false);
    assert.equal(failed.aliasLive, false);
    assert.equal(failed.failureCount, 1);
    assert.equal(failed.failures[0]?.path, 'en-us/long/index.json');
    assert.equal(failed.failures[0]?.error.type, 'invalid_document');
    assert.deepEqual((await engine.listIndices('docs_')).map((info) => [info.name, info.aliases]), [['docs_20261121050607', ['docs']]]);
    assert.deepEqual(await titles('kestrel'), ['Old kestrel']);

    const accepted = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0, maxFailures: 1 });
    assert.equal(accepted.ok, true);
    assert.equal(accepted.aliasLive, true);
    assert.deepEqual(await titles('kestrel'), ['New kestrel']);
  });

  it('adds and replaces documents by id in the live index when updating (alias live → alias live)', async () => {
    writePages(root, [
      { folder: 'en-us/a', title: 'Original heron' },
      { folder: 'en-us/b', title: 'Untouched heron' },
    ]);
    const first = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    rebuild(() =>
      writePages(root, [
        { folder: 'en-us/a', title: 'Changed heron' },
        { folder: 'en-us/c', title: 'Added heron' },
      ]),
    );
    const report = await runIndexer({ engine, root, prefix: 'docs', mode: 'update', workers: 0 });
    assert.equal(report.index, first.index);
    assert.equal(report.aliasLive, true);
    assert.deepEqual(await titles('heron'), ['Added heron', 'Changed heron', 'Untouched heron']);
    assert.equal((await engine.listIndices('docs_')).length, 1);
  });

  it('fails with an error when updating and no <prefix>_* index exists', async () => {
    writePages(root, [{ folder: 'en-us/a', title: 'A' }]);
    await assert.rejects(runIndexer({ engine, root, prefix: 'docs', mode: 'update', workers: 0 }), hasCode('SEARCH_INDEX_MISSING'));
    assert.deepEqual(await engine.listIndices('docs'), []);
  });

  it('recreates from scratch with the priority folder first, dropping removed documents', async () => {
    await firstRun('Gone ibis', 'en-us/gone');
    rebuild(() =>
      writePages(root, [
        { folder: 'de/a', title: 'German ibis' },
        { folder: 'en-us/z', title: 'English ibis' },
        { folder: 'fr/a', title: 'French ibis' },
        { folder: 'en-us/a', title: 'English ibis too' },
      ]),
    );
    const order: string[] = [];
    const report = await runIndexer({
      engine: recordingBulk(engine, order),
      root,
      prefix: 'docs',
      mode: 'recreate',
      now: () => new Date(at.getTime() + 1000),
      workers: 0,
      chunkSize: 1,
    });
    assert.deepEqual(order, ['/en-us/a', '/en-us/z', '/de/a', '/fr/a']);
    assert.deepEqual(report.deletedIndices, ['docs_20261121050607']);
    assert.deepEqual(await titles('ibis'), ['English ibis', 'English ibis too', 'French ibis', 'German ibis']);
  });

  it('keeps the later document when two files share an id', async () => {
    writePages(root, [
      { folder: 'en-us/a', title: 'Earlier owl', url: '/Same' },
      { folder: 'en-us/b', title: 'Later owl', url: '/same' },
    ]);
    const report = await runIndexer({ engine, root, prefix: 'docs', workers: 0 });
    assert.equal(report.documents, 2);
    assert.deepEqual(await titles('owl'), ['Later owl']);
  });

  it('reports bad files by path and indexes the rest, with reading threads too', async () => {
    writePages(root, [{ folder: 'en-us/good', title: 'Good crane' }]);
    writeRaw(root, 'en-us/bad-json', '{"doc": ');
    writeRaw(root, 'en-us/no-title', JSON.stringify({ doc: { summary: 'x' } }));
    for (const workers of [0, 1]) {
      const report = await runIndexer({ engine, root, prefix: 'docs', workers });
      assert.equal(report.documents, 1);
      assert.deepEqual(report.badFiles.map((bad) => bad.path), ['en-us/bad-json/index.json', 'en-us/no-title/index.json']);
      assert.equal(report.ok, true);
    }
    assert.deepEqual(await titles('crane'), ['Good crane']);
  });

  const refused = (code: string, pattern: RegExp) => (error: unknown) => isAppError(error) && error.code === code && pattern.test(error.message);
  const pages = (count: number, title: string) => Array.from({ length: count }, (_, i) => ({ folder: `en-us/${title}-${i}`, title: `${title} ${i}` }));
  const rebuild = (write: () => void) => {
    rmSync(root, { recursive: true, force: true });
    write();
  };
  /** A first run, making the page `title` in `folder` live. */
  const firstRun = (title: string, folder: string) => {
    writePages(root, [{ folder, title }]);
    return runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
  };
  /** Makes a run of four pages titled `title` live, then leaves a build of one of them in its place. */
  const shrunkBuild = async (title: string) => {
    writePages(root, pages(4, title));
    const first = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    rebuild(() => writePages(root, pages(1, title)));
    return first;
  };
  const liveIndices = async () => (await engine.listIndices('docs_')).map((info) => [info.name, info.aliases, info.docCount]);

  it('deletes the new index and leaves the alias when a full run finds no documents, unless allowShrink', async () => {
    writeRaw(root, 'en-us/bad', '{"doc": ');
    await assert.rejects(
      runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 }),
      refused('INDEX_EMPTY_REFUSED', /^refused to make docs_20261121050607 live with 0 documents with no live index to replace: .*the new index was deleted and the alias left as it was; --allow-shrink accepts it$/),
    );
    assert.deepEqual(await liveIndices(), []);

    rebuild(() => writePages(root, pages(2, 'Stork')));
    await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    rebuild(() => writeRaw(root, 'en-us/bad', '{"doc": '));
    await assert.rejects(
      runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 }),
      refused('INDEX_EMPTY_REFUSED', /with 0 documents in place of the 2 of docs_20261121050607: an index with no documents is not made live/),
    );
    assert.deepEqual(await liveIndices(), [['docs_20261121050607', ['docs'], 2]]);
    assert.deepEqual(await titles('stork'), ['Stork 0', 'Stork 1']);

    const allowed = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0, allowShrink: true });
    assert.equal(allowed.aliasLive, true);
    assert.deepEqual(await liveIndices(), [[allowed.index, ['docs'], 0]]);
  });

  it('deletes the new index and leaves the alias when a full run has fewer than half the live documents, and swaps at half', async () => {
    const first = await shrunkBuild('Tern');
    await assert.rejects(
      runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 }),
      (error) => {
        assert.ok(isAppError(error));
        assert.equal(error.code, 'INDEX_SHRINK_REFUSED');
        assert.match(error.message, /^refused to make docs_20261121050607_2 live with 1 documents in place of the 4 of docs_20261121050607: fewer than half; the new index was deleted/);
        assert.deepEqual(error.details, { documents: 1, replacedDocuments: 4 });
        return true;
      },
    );
    assert.deepEqual(await liveIndices(), [[first.index, ['docs'], 4]]);
    assert.equal((await titles('tern')).length, 4);

    rebuild(() => writePages(root, pages(2, 'Tern')));
    const half = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    assert.equal(half.aliasLive, true);
    assert.deepEqual(await liveIndices(), [[half.index, ['docs'], 2]]);
  });

  it('creates nothing when a recreate build has fewer index.json files than half the live documents', async () => {
    const first = await shrunkBuild('Gannet');
    const bulkIds: string[] = [];
    await assert.rejects(
      runIndexer({ engine: recordingBulk(engine, bulkIds), root, prefix: 'docs', mode: 'recreate', now: () => at, workers: 0 }),
      refused('INDEX_SHRINK_REFUSED', /^refused to recreate from a build of at most 1 documents in place of the 4 of docs_20261121050607: fewer than half; nothing was created/),
    );
    assert.deepEqual(bulkIds, []);
    assert.deepEqual(await liveIndices(), [[first.index, ['docs'], 4]]);
  });

  it('points the alias back and deletes the new index when a recreate run indexes fewer than half the live documents, unless allowShrink', async () => {
    writePages(root, pages(4, 'Puffin'));
    const first = await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    rebuild(() => {
      writePages(root, pages(1, 'Auk'));
      for (const folder of ['en-us/bad-1', 'en-us/bad-2', 'en-us/bad-3']) writeRaw(root, folder, '{"doc": ');
    });
    const recreate = { engine, root, prefix: 'docs', mode: 'recreate', now: () => new Date(at.getTime() + 1000), workers: 0 } as const;
    await assert.rejects(
      runIndexer(recreate),
      refused('INDEX_SHRINK_REFUSED', /^refused to keep docs_20261121050608 live with 1 documents in place of the 4 of docs_20261121050607: fewer than half; the alias is back where it was and the new index was deleted/),
    );
    assert.deepEqual(await liveIndices(), [[first.index, ['docs'], 4]]);
    assert.equal((await titles('puffin')).length, 4);

    const allowed = await runIndexer({ ...recreate, allowShrink: true });
    assert.equal(allowed.aliasLive, true);
    assert.deepEqual(allowed.deletedIndices, [first.index]);
    assert.deepEqual(await titles('auk'), ['Auk 0']);
  });

  it('fails naming the root and creates nothing when the root holds no index.json, in every mode', async () => {
    writePages(root, pages(1, 'Shag'));
    await runIndexer({ engine, root, prefix: 'docs', now: () => at, workers: 0 });
    rebuild(() => {
      mkdirSync(join(root, 'en-us', 'plog'), { recursive: true });
      writeFileSync(join(root, 'en-us', 'plog', 'notes.json'), '{}');
    });
    for (const mode of ['full', 'recreate', 'update'] as const) {
      for (const allowShrink of [false, true]) {
        await assert.rejects(
          runIndexer({ engine, root, prefix: 'docs', mode, allowShrink, workers: 0 }),
          (error) => isAppError(error) && error.code === 'BUILD_EMPTY' && error.message === `content build root '${root}' holds no index.json`,
        );
      }
    }
    assert.deepEqual(await liveIndices(), [['docs_20261121050607', ['docs'], 1]]);
  });

  it('fails with a clear error when the build root is missing', async () => {
    await assert.rejects(runIndexer({ engine, root: join(folder.dir, 'nope'), prefix: 'docs' }), hasCode('BUILD_ROOT_MISSING'));
  });
});
