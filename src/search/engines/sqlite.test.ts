import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { engineContractTests } from './contract.js';
import { SUGGESTION_TOTAL_CAP, SqliteEngine } from './sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'sitestack-sqlite-engine-'));
after(() => rmSync(dir, { recursive: true, force: true }));

engineContractTests('sqlite', async () => new SqliteEngine({ path: join(dir, 'search.sqlite') }));

describe('SqliteEngine suggestions', () => {
  it('counts a suggestion up to SUGGESTION_TOTAL_CAP, then answers the cap with relation gte', async () => {
    const engine = new SqliteEngine({ path: join(dir, 'suggest-cap.sqlite') });
    try {
      await engine.createIndex('cap');
      const documents = (word: string, count: number) => Array.from({ length: count }, (_, i) => ({
        id: `${word}${i}`, url: `/${word}${i}`, title: `${word} ${i}`, body: '', summary: '', popularity: 0, locale: 'en-US', slug: `${word}${i}`,
      }));
      await engine.bulk('cap', [...documents('pelican', SUGGESTION_TOTAL_CAP + 20), ...documents('cormorant', SUGGESTION_TOTAL_CAP)]);
      await engine.refresh('cap');
      assert.deepEqual(await engine.suggest({ index: 'cap', text: 'pelcian' }), [{ text: 'pelican', total: SUGGESTION_TOTAL_CAP, relation: 'gte' }]);
      assert.deepEqual(await engine.suggest({ index: 'cap', text: 'cormorat' }), [{ text: 'cormorant', total: SUGGESTION_TOTAL_CAP, relation: 'eq' }], 'exactly the cap');
      assert.equal(await engine.count({ index: 'cap', text: 'pelican' }), SUGGESTION_TOTAL_CAP + 20, 'count() stays exact');
    } finally {
      await engine.close();
    }
  });
});
