#!/usr/bin/env node
// Compiles native/*.c (the embedded search engine's ranking and highlighting functions, see
// src/search/engines/native-functions.ts) into one library in build/, against the SQLite headers better-sqlite3 ships. Run by
// `npm ci` (postinstall), `npm run build`, `npm test` and `npm run bench`; it does nothing when the library is newer than
// every file of native/. Without a C compiler it says so and exits 0: the engine then ranks with SQLite's own bm25() and
// highlights in JS, which give the same answers and cost more per query.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const native = join(root, 'native');
const files = readdirSync(native).map((name) => join(native, name));
const sources = files.filter((file) => file.endsWith('.c'));
const library = join(root, 'build', process.platform === 'darwin' ? 'sitestack-fts5.dylib' : process.platform === 'win32' ? 'sitestack-fts5.dll' : 'sitestack-fts5.so');

if (existsSync(library) && files.every((file) => statSync(library).mtimeMs >= statSync(file).mtimeMs)) process.exit(0);

let headers;
try {
  headers = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'deps', 'sqlite3');
} catch {
  console.warn('build-native: better-sqlite3 is not installed yet; skipped');
  process.exit(0);
}
mkdirSync(dirname(library), { recursive: true });
const compiler = process.env.CC ?? 'cc';
const flags = process.platform === 'darwin' ? ['-dynamiclib', '-undefined', 'dynamic_lookup'] : ['-shared'];
const result = spawnSync(compiler, ['-O2', '-fPIC', ...flags, '-I', headers, ...sources, '-o', library, '-lm'], { stdio: ['ignore', 'inherit', 'inherit'] });
if (result.error !== undefined || result.status !== 0) {
  console.warn(`build-native: could not compile ${sources.join(' ')} with '${compiler}' (${result.error?.message ?? `exit ${result.status}`}); search ranks with SQLite's bm25() and highlights in JS instead`);
  process.exit(0);
}
