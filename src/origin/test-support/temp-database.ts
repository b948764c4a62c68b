import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOriginDatabase, type OriginDatabase } from '../database.js';

/** A fresh, unseeded origin database in a folder of its own; what closes and removes them goes to `cleanups`. */
export function tempOriginDatabase(cleanups: (() => unknown)[], prefix: string): { db: OriginDatabase; file: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'origin.sqlite');
  const db = openOriginDatabase(file, { seed: false });
  cleanups.push(() => {
    if (db.open) db.close();
  });
  return { db, file };
}
