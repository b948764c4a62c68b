import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { silentLogger } from '../../log.js';
import { createOriginApp, type OriginAppOptions } from '../app.js';
import { openOriginDatabase, type OriginDatabase } from '../database.js';

/**
 * An origin app over a fresh in-memory database without the demo posts, listening on a free port from the suite's
 * `before` hook to its `after` hook. `db` and `base` can be read only from the tests.
 */
export function originAppForSuite(options: Omit<OriginAppOptions, 'db' | 'logger'>): { readonly db: OriginDatabase; readonly base: string } {
  let running: { db: OriginDatabase; base: string; close: () => Promise<void> } | undefined;
  before(async () => {
    const db = openOriginDatabase(':memory:', { seed: false });
    const app = await createOriginApp({ ...options, db, logger: silentLogger() });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const close = async () => {
      await app.close();
      db.close();
    };
    running = { db, base, close };
  });
  after(() => running?.close());
  const current = () => {
    assert.ok(running !== undefined, 'the origin app runs only inside the suite');
    return running;
  };
  return {
    get db() {
      return current().db;
    },
    get base() {
      return current().base;
    },
  };
}
