import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEngine } from '../../src/search/engines/sqlite/engine.js';
import { seededRandom } from '../../src/seeded-random.js';
import { indexGenerated } from '../engine-corpus.js';
import { MANPAGE_LOCALES, MANPAGE_PACKAGES, manPageCorpus } from '../corpus/manpages.js';
import { percentile, share } from '../quality/figures.js';
import { alphabetOf, bodyPhrases, dominantScript, segmentWords, titleWordQuery, type ScriptClass } from '../quality/locale-queries.js';
import { foldWord, pageWords, typoQuery } from '../quality/queries.js';
import type { SyntheticDocument } from '../corpus/synthetic.js';
import type { BenchResult } from '../lib.js';

const INDEX = 'locales_20260101000000';
const ALIAS = 'locales';
/** Pages sampled per locale, spread evenly over it; every query set is derived from these. */
const SAMPLED_PER_LOCALE = 200;
/** A phrase held by more pages than this is no way to find one page: another is drawn. */
const MAX_PHRASE_PAGES = 3;
/** Languages written without spaces between words: the lower targets for title words and phrases. */
const UNSPACED_LANGUAGES = new Set(['zh', 'ja', 'th', 'lo', 'km', 'my']);

type QuerySet = 'title' | 'word' | 'typo' | 'phrase' | 'complete';

interface Query {
  locale: string;
  url: string;
  text: string;
  within: number;
  set: QuerySet;
}

const plainText = (html: string) =>
  html.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const bodyText = (document: SyntheticDocument) => document.json.doc.body.map((section) => plainText(section.value.content)).join('\n');

/** The queries of one locale's pages, by the rules of locale-queries.ts and queries.ts. */
function localeQueries(locale: string, documents: SyntheticDocument[], seed: number): Query[] {
  const titles = new Map<string, number>();
  const titlesWith = new Map<string, number>();
  const titleWords: string[] = [];
  for (const { json } of documents) {
    const title = json.doc.title.toLowerCase();
    titles.set(title, (titles.get(title) ?? 0) + 1);
    const words = new Set(segmentWords(json.doc.title, locale).map((word) => foldWord(word.text)));
    for (const word of words) titlesWith.set(word, (titlesWith.get(word) ?? 0) + 1);
    titleWords.push(...words);
  }
  const script: ScriptClass = dominantScript(titleWords);
  const folded = documents.map((document) => foldWord(bodyText(document)).replace(/\s+/g, ' '));
  const pagesWith = (phrase: string) => folded.filter((text) => text.includes(phrase)).length;
  const known = new Set<string>(titleWords);
  if (script !== 'other') for (const document of documents) for (const word of pageWords(document.json.doc.title, bodyText(document))) known.add(word);
  const alphabet = alphabetOf(titleWords.filter((word) => /^\p{L}+$/u.test(word)));
  const random = seededRandom(seed);
  const every = Math.max(1, Math.floor(documents.length / SAMPLED_PER_LOCALE));
  const queries: Query[] = [];
  documents.forEach((document, position) => {
    const { title, mdn_url: url } = document.json.doc;
    if (position % every !== 0 || titles.get(title.toLowerCase()) !== 1) return;
    queries.push({ locale, url, text: title, within: 1, set: 'title' });
    const word = titleWordQuery(title, locale, script, (key) => titlesWith.get(key) ?? 0, random);
    if (word !== undefined) {
      queries.push({ locale, url, text: word, within: 3, set: 'word' });
      // Autocomplete as a reader types the same word into the header box: all of it, and all but its last character.
      const characters = Array.from(word);
      queries.push({ locale, url, text: word, within: 10, set: 'complete' });
      if (characters.length >= 4) queries.push({ locale, url, text: characters.slice(0, -1).join(''), within: 10, set: 'complete' });
    }
    if (script !== 'other') {
      const typo = typoQuery(title, random, (key) => known.has(key), alphabet);
      if (typo !== undefined) queries.push({ locale, url, text: typo.text, within: 3, set: 'typo' });
    }
    const phrase = bodyPhrases(bodyText(document), locale, script, random)
      .slice(0, 3)
      .find((candidate) => pagesWith(foldWord(candidate)) <= MAX_PHRASE_PAGES);
    if (phrase !== undefined) queries.push({ locale, url, text: phrase, within: 5, set: 'phrase' });
  });
  return queries;
}

/**
 * Search quality and single-word latency per locale on the translated manual pages Debian ships (corpus/manpages.ts):
 * one row per locale and query set, with the targets. Without the packages, one row that says which to install.
 */
export async function measureManPages(root: string): Promise<BenchResult[]> {
  const corpus = manPageCorpus(root);
  const install = `apt-get install ${MANPAGE_PACKAGES.join(' ')}`;
  if (corpus.missing.length > 0) {
    const missing = corpus.missing.map(({ locale, package: name, pages }) => `${locale} (${name}: ${pages} pages under ${root})`).join(', ');
    return [{ name: 'manpages: skipped', value: Number.NaN, unit: '', note: `the translated manual pages are not installed: ${missing}; ${install}` }];
  }
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-search-locales-'));
  const engine = new SqliteEngine({ path: join(dir, 'search.sqlite') });
  try {
    const started = performance.now();
    const written = await indexGenerated(engine, { index: INDEX, alias: ALIAS }, corpus.documents, () => undefined);
    console.error(`  manpages: indexed ${written.documents} pages of ${corpus.locales.length} locales in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const queries = corpus.locales.flatMap((locale, index) =>
      localeQueries(
        locale,
        corpus.documents.filter((document) => document.json.doc.locale === locale),
        index + 1,
      ),
    );
    const search = (query: Query) => engine.search({ index: ALIAS, text: query.text, locales: [query.locale], size: 10, highlight: true });
    const complete = (query: Query) => engine.autocomplete({ index: ALIAS, prefix: query.text, locales: [query.locale], size: 10 });
    // Warm-up, so the timings below are of compiled code and a warm page cache.
    for (const query of queries.slice(0, 200)) await (query.set === 'complete' ? complete(query) : search(query));
    const found = new Set<Query>();
    const took = new Map<Query, number>();
    // SEARCH_QUALITY_MISSES=N prints the first N misses of each locale's query set, with what was found instead.
    const missesShown = Number(process.env.SEARCH_QUALITY_MISSES ?? 0);
    const shown = new Map<string, number>();
    for (const query of queries) {
      const start = process.hrtime.bigint();
      const result = query.set === 'complete' ? { documents: await complete(query) } : await search(query);
      took.set(query, Number(process.hrtime.bigint() - start) / 1e6);
      const rank = result.documents.findIndex((hit) => hit.url === query.url);
      if (rank >= 0 && rank < query.within) found.add(query);
      else if ((shown.get(query.locale + query.set) ?? 0) < missesShown) {
        shown.set(query.locale + query.set, (shown.get(query.locale + query.set) ?? 0) + 1);
        const top = result.documents.slice(0, query.within).map((hit) => hit.title).join(' | ');
        const corrected = 'corrected' in result && result.corrected !== undefined ? `, corrected '${result.corrected}'` : '';
        console.error(`  miss ${query.locale} ${query.set}: '${query.text}' for ${query.url} (rank ${rank}${corrected}): ${top}`);
      }
    }
    return corpus.locales.flatMap((locale) => localeRows(locale, queries.filter((query) => query.locale === locale), found, took));
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const LABELS: Record<QuerySet, string> = {
  title: 'whole title ranked first',
  word: 'one title word, page in top 3',
  typo: 'one typo, page in top 3',
  phrase: 'body phrase, page in top 5',
  complete: 'autocomplete on a title word, page among 10',
};

function localeRows(locale: string, queries: Query[], found: ReadonlySet<Query>, took: ReadonlyMap<Query, number>): BenchResult[] {
  const unspaced = UNSPACED_LANGUAGES.has(locale.split('-')[0] ?? '');
  const targets: Record<QuerySet, number> = { title: 99.5, word: unspaced ? 95 : 99, typo: 95, phrase: unspaced ? 85 : 95, complete: 95 };
  const rows: BenchResult[] = [];
  for (const set of ['title', 'word', 'typo', 'phrase', 'complete'] as const) {
    const subset = queries.filter((query) => query.set === set);
    if (subset.length === 0) continue;
    const value = share(subset.filter((query) => found.has(query)).length, subset.length);
    rows.push({ name: `manpages ${locale}: ${LABELS[set]}`, value, unit: '%', target: { min: targets[set] }, note: `${subset.length} queries` });
  }
  const words = queries.filter((query) => query.set === 'word').map((query) => took.get(query) ?? Number.NaN).sort((a, b) => a - b);
  rows.push(
    { name: `manpages ${locale}: one-word search p50`, value: percentile(words, 0.5), unit: 'ms', target: { max: 2 }, note: `${words.length} title-word searches, size 10 with highlighting` },
    { name: `manpages ${locale}: one-word search p99`, value: percentile(words, 0.99), unit: 'ms', target: { max: 10 } },
  );
  const completions = queries.filter((query) => query.set === 'complete').map((query) => took.get(query) ?? Number.NaN).sort((a, b) => a - b);
  rows.push({ name: `manpages ${locale}: autocomplete p99`, value: percentile(completions, 0.99), unit: 'ms', target: { max: 5 }, note: `p50 ${percentile(completions, 0.5).toFixed(3)} ms, size 10` });
  return rows;
}

/** The locales the corpus holds when every package is installed, for the suite's description. */
export const MANPAGE_LOCALE_NAMES = MANPAGE_LOCALES.map((entry) => entry.locale);
