import Database from 'better-sqlite3';
const db = new Database('/tmp/sq50k/search.sqlite', { readonly: true });
const f = '"ix_bench_20260101000000_fts"';
for (const e of ['{title} : ("of" "the")', '"of" "the"', '{title} : ("the" "and" "object")', '"ziprock"', '{title}: "ziprock"']) {
  for (const [name, sql] of [['count', `SELECT count(*) FROM ${f} WHERE ${f} MATCH ?`], ['bm25', `SELECT rowid FROM ${f} WHERE ${f} MATCH ? ORDER BY bm25(${f}, 10, 3, 1) LIMIT 10`]] as const) {
    const st = db.prepare(sql); st.all(e); const t = performance.now(); const r = st.all(e); console.log(name, e, (performance.now() - t).toFixed(1), name === 'count' ? JSON.stringify(r) : '');
  }
}
