import { SqliteEngine } from '/work/wt/search2/src/search/engines/sqlite.js';
import { typoQueries } from '/work/wt/search2/bench/suites/search-query.js';
import { foldForPrefix } from '/work/wt/search2/src/search/query-text.js';
import Database from 'better-sqlite3';
const file = '/tmp/sq50k/search.sqlite';
const db = new Database(file, { readonly: true });
const samples = db.prepare(`SELECT url, title, locale FROM "ix_bench_20260101000000_docs" WHERE rowid % 50 = 1`).all() as { url: string; title: string; locale: string }[];
const engine = new SqliteEngine({ path: file });
const typos = typoQueries(samples);
const time = async (name: string, items: any[], fn: (x: any) => Promise<unknown>) => {
  const s: number[] = [];
  for (const x of items) { const t = process.hrtime.bigint(); await fn(x); s.push(Number(process.hrtime.bigint() - t) / 1e6); }
  s.sort((a, b) => a - b);
  console.log(name, 'p50', s[Math.floor(s.length / 2)]!.toFixed(2), 'p90', s[Math.floor(s.length * 0.9)]!.toFixed(2), 'p99', s[Math.floor(s.length * 0.99)]!.toFixed(2), 'max', s.at(-1)!.toFixed(1));
};
const q = samples.map((s) => ({ text: s.title, locale: s.locale }));
const t = typos.map((s) => ({ text: s.text, locale: s.sample.locale }));
const which = process.argv[2] ?? 'all';
await time('search exact nohl', q.slice(0, 200), (x) => engine.search({ index: 'bench', text: x.text, locales: [x.locale] }));
await time('search exact hl', q.slice(0, 200), (x) => engine.search({ index: 'bench', text: x.text, locales: [x.locale], highlight: true }));
await time('suggest exact', q.slice(0, 200), (x) => engine.suggest({ index: 'bench', text: x.text, locales: [x.locale] }));
await time('search typo', t.slice(0, 200), (x) => engine.search({ index: 'bench', text: x.text, locales: [x.locale], highlight: true }));
await time('suggest typo', t.slice(0, 200), (x) => engine.suggest({ index: 'bench', text: x.text, locales: [x.locale] }));
if (which === 'quality') {
  let ok = 0, strict = 0; const bad: string[] = [];
  for (const s of samples) { const r = await engine.search({ index: 'bench', text: s.title, locales: [s.locale], size: 3 }); const top = r.documents[0]; if (top?.url === s.url) strict++; if (top && (top.url === s.url || top.title.toLowerCase() === s.title.toLowerCase())) ok++; else bad.push(`${s.title} -> ${top?.title}`); }
  console.log('exact', ok / samples.length, strict / samples.length, bad.slice(0, 8));
  let found = 0; const miss: string[] = [];
  for (const x of typos) { const r = await engine.search({ index: 'bench', text: x.text, locales: [x.sample.locale], size: 3 }); const sg = await engine.suggest({ index: 'bench', text: x.text, locales: [x.sample.locale] }); if (r.documents.some((h) => h.url === x.sample.url) || sg.some((g) => foldForPrefix(g.text.split(' ')[x.position] ?? '') === foldForPrefix(x.intendedWord))) found++; else miss.push(`${x.text} (${x.intendedWord}) -> ${JSON.stringify(sg)} / ${r.documents.map((d) => d.title).join('|')}`); }
  console.log('typo', found / typos.length, miss.slice(0, 10));
}
