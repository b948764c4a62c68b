import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { SqliteEngine } from '../engines/sqlite/engine.js';
import type { IndexedDocument } from '../engines/types.js';

/** A fresh folder for a test file's databases, removed when the file's tests are done. */
export function testDirectory(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A folder of one test's own, with an engine over a database file in it. */
export interface EngineFolder {
  dir: string;
  engine: SqliteEngine;
  /** Closes the engine and removes the folder. */
  close(): Promise<void>;
}

export function engineInFreshFolder(prefix: string): EngineFolder {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const engine = new SqliteEngine({ path: join(dir, 'search.sqlite') });
  return {
    dir,
    engine,
    async close() {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `use` on an engine over the file at `path`, closed when it is done. */
export async function withEngine(path: string, use: (engine: SqliteEngine) => Promise<void>): Promise<void> {
  const engine = new SqliteEngine({ path });
  try {
    await use(engine);
  } finally {
    await engine.close();
  }
}

/** English pages `d0`… with the titles and bodies `page` gives by number, popularity cycling by tenths. */
export function numberedPages(count: number, page: (i: number) => { title: string; body: string }): IndexedDocument[] {
  return Array.from({ length: count }, (_, i) => ({ id: `d${i}`, url: `/d${i}`, ...page(i), summary: '', popularity: (i % 10) / 10, locale: 'en-US', slug: `d${i}` }));
}

/** Creates index `name` holding `documents`, refreshed. */
export async function indexed(engine: SqliteEngine, name: string, documents: readonly IndexedDocument[]): Promise<void> {
  await engine.createIndex(name);
  await engine.bulk(name, documents);
  await engine.refresh(name);
}
