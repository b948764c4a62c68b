import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isAppError } from '../../errors.js';
import { ElasticsearchEngine } from '../engines/elasticsearch/engine.js';
import { createEngine } from '../engines/factory.js';
import { sqlitePathFromUrl } from '../engines/sqlite/engine.js';
import { isRunIndexName, runIndexName } from './index-names.js';

describe('runIndexName', () => {
  it('formats the UTC time as YYYYMMDDHHMMSS and adds the attempt from the second on', () => {
    const at = new Date('2026-01-02T03:04:05.678+02:00');
    assert.equal(runIndexName('site_docs', at), 'site_docs_20260102010405');
    assert.equal(runIndexName('site_docs', at, 2), 'site_docs_20260102010405_2');
  });

  it('recognises only indices a run of the same prefix created', () => {
    const names = ['docs_20260102010405', 'docs_20260102010405_12', 'docs_v2_20260102010405', 'docs_backup'];
    assert.deepEqual(names.filter((name) => isRunIndexName('docs', name)), ['docs_20260102010405', 'docs_20260102010405_12']);
    assert.equal(isRunIndexName('do.s', 'docs_20260102010405'), false);
  });
});

describe('createEngine', () => {
  it('selects Elasticsearch for http(s) URLs and refuses malformed URLs', async () => {
    const engine = createEngine('https://u:p@es:9200');
    assert.ok(engine instanceof ElasticsearchEngine);
    await engine.close();
    assert.throws(() => createEngine('es:9200'), (error) => isAppError(error) && error.code === 'SEARCH_URL_INVALID');
    assert.throws(() => createEngine('sqlite:'), (error) => isAppError(error) && error.code === 'SEARCH_URL_INVALID');
  });

  it('reads the file of sqlite: and sqlite:// URLs', () => {
    assert.equal(sqlitePathFromUrl('sqlite:/srv/data/search.sqlite'), '/srv/data/search.sqlite');
    assert.equal(sqlitePathFromUrl('sqlite:///srv/data/search.sqlite'), '/srv/data/search.sqlite');
    assert.equal(sqlitePathFromUrl('sqlite:data/search.sqlite'), 'data/search.sqlite');
  });
});
