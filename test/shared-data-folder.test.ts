import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../src/origin/database.js';
import { DEMO_SONGS } from '../src/songs/demo-songs.js';

const SCRIPT = join(import.meta.dirname, 'support', 'open-stores-at.ts');

function openAt(folder: string, at: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, folder, String(at)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('one data folder shared by processes started together', () => {
  const folders: string[] = [];
  after(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  it('creates, migrates and seeds each new store once when four processes open them at the same instant', async () => {
    for (let round = 0; round < 3; round++) {
      const folder = mkdtempSync(join(tmpdir(), 'sitestack-shared-folder-'));
      folders.push(folder);
      // Far enough ahead for every process to have loaded its modules and be spinning when the instant comes.
      const at = Date.now() + 4_000;
      const runs = await Promise.all([0, 1, 2, 3].map(() => openAt(folder, at)));
      for (const run of runs) assert.equal(run.code, 0, run.output);
      const songs = new Database(join(folder, 'songs.sqlite'), { readonly: true });
      assert.equal((songs.prepare('SELECT count(*) AS count FROM songs').get() as { count: number }).count, DEMO_SONGS.length);
      songs.close();
      const origin = new Database(join(folder, 'origin.sqlite'), { readonly: true });
      assert.equal(origin.pragma('user_version', { simple: true }), MIGRATIONS.length);
      assert.equal((origin.prepare(`SELECT count(*) AS count FROM meta WHERE key = 'seeded'`).get() as { count: number }).count, 1);
      origin.close();
    }
  });
});
