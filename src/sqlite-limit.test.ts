import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { BOUND_LIMIT } from './sqlite-limit.js';
import { sourceFiles } from './test-support/source-files.js';

describe('BOUND_LIMIT', () => {
  it('limits the rows to the bound value when it is bound again and again', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE numbers (n INTEGER PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO numbers (n) VALUES (?)');
    for (let n = 1; n <= 50; n++) insert.run(n);
    const statement = db.prepare(`SELECT n FROM numbers ORDER BY n ${BOUND_LIMIT}`).pluck();
    assert.deepEqual(statement.all(3), [1, 2, 3]);
    assert.deepEqual(statement.all(0), []);
    assert.equal(statement.all(40).length, 40);
    assert.throws(() => statement.all('many'), /datatype mismatch/);
    db.close();
  });

  it('is what every statement of the project with a bound row limit uses', () => {
    const own = fileURLToPath(new URL('sqlite-limit.ts', import.meta.url));
    const bare = sourceFiles().filter((path) => path !== own && /\bLIMIT \?/i.test(readFileSync(path, 'utf8')));
    assert.deepEqual(bare, [], 'a bare `LIMIT ?` makes SQLite prepare its statement again on every call: use BOUND_LIMIT');
  });
});
