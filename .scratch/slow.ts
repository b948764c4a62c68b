import { SqliteEngine } from '../src/search/engines/sqlite.js';
import Database from 'better-sqlite3';
const file = '/tmp/sq50k/search.sqlite';
const db = new Database(file, { readonly: true });
const samples = db.prepare(`SELECT url, title, locale FROM "ix_bench_20260101000000_docs" WHERE rowid % 50 = 1`).all() as { url: string; title: string; locale: string }[];
const engine = new SqliteEngine({ path: file });
const out: [number, string, number][] = [];
for (const s of samples.slice(0, 200)) { const t = performance.now(); const r = await engine.search({ index: 'bench', text: s.title, locales: [s.locale] }); out.push([performance.now() - t, s.title, r.total.value]); }
out.sort((a, b) => b[0] - a[0]);
const freq = db.prepare(`SELECT doc FROM "ix_bench_20260101000000_vocab" WHERE term = ?`).pluck();
for (const [ms, title, total] of out.slice(0, 12)) console.log(ms.toFixed(1), total, title, title.toLowerCase().split(' ').map((w) => freq.get(w)));
