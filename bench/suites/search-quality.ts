import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEngine } from '../../src/search/engines/sqlite/engine.js';
import type { SearchEngine } from '../../src/search/engines/types.js';
import { indexGenerated } from '../engine-corpus.js';
import { englishLexicon, qualityDocuments, QUALITY_CORPUS_DEFAULTS } from '../corpus/quality-corpus.js';
import { ADJECTIVES, FUNCTION_WORDS } from '../corpus/quality-words.js';
import { seededRandom } from '../../src/seeded-random.js';
import { SYNTHETIC_DEFAULTS, syntheticDocuments, syntheticVocabulary, type SyntheticDocument } from '../corpus/synthetic.js';
import { foldWord, identifierQueries, pageWords, typoQuery, wordFormQuery, type IdentifierRule, type TypoKind } from '../quality/queries.js';
import { percentile, share } from '../quality/figures.js';
import { MANPAGE_LOCALE_NAMES, measureManPages } from './search-quality-locales.js';
import type { BenchResult, BenchSuite } from '../lib.js';

const INDEX = 'quality_20260101000000';
const ALIAS = 'quality';
/** Pages sampled per corpus, spread evenly over it; every query set is derived from these. */
const SAMPLED_PAGES = 1000;

interface Page {
  url: string;
  title: string;
  locale: string;
  /** The words of its title, summary and body (see pageWords). */
  words: Set<string>;
}

interface IndexedCorpus {
  documents: number;
  bytes: number;
  /** The sampled pages whose title no other page of the corpus has (ignoring case). */
  pages: Page[];
  sampled: number;
  /** Every word of every title, folded: a typo that spells one of them is drawn again. */
  titleWords: Set<string>;
}

/** Indexes the documents into the engine (see indexGenerated), sampling pages. */
async function indexCorpus(engine: SearchEngine, documents: Iterable<SyntheticDocument>, count: number): Promise<IndexedCorpus> {
  const every = Math.max(1, Math.floor(count / SAMPLED_PAGES));
  const titles = new Map<string, number>();
  const titleWords = new Set<string>();
  const sampled: Page[] = [];
  let position = 0;
  const written = await indexGenerated(engine, { index: INDEX, alias: ALIAS }, documents, (document) => {
    const key = document.title.toLowerCase();
    titles.set(key, (titles.get(key) ?? 0) + 1);
    for (const word of document.title.split(' ')) titleWords.add(foldWord(word));
    if (position % every === 0) {
      sampled.push({ url: document.url, title: document.title, locale: document.locale, words: pageWords(document.title, document.summary, document.body) });
    }
    position++;
  });
  const pages = sampled.filter((page) => titles.get(page.title.toLowerCase()) === 1);
  return { documents: written.documents, bytes: written.bytes, pages, sampled: sampled.length, titleWords };
}

interface Query {
  page: Page;
  text: string;
  /** The page must be among the first `within` results. */
  within: number;
  set: 'exact' | 'typo' | 'form' | 'identifier';
  /** What kind of typo or identifier rule, for the notes. */
  detail?: TypoKind | IdentifierRule;
}

/** `deletion 96% of 250, …`: the share found for each kind of query within a set. */
function breakdown(queries: readonly Query[], found: ReadonlySet<Query>): string {
  const kinds = [...new Set(queries.map((query) => query.detail ?? ''))];
  return kinds
    .map((kind) => {
      const of = queries.filter((query) => (query.detail ?? '') === kind);
      return `${kind} ${share(of.filter((query) => found.has(query)).length, of.length).toFixed(1)}% of ${of.length}`;
    })
    .join(', ');
}

/** `; en-US 98.0% of 200, other locales 40.0% of 190` when the queries are of several locales. */
function byLocale(queries: readonly Query[], found: ReadonlySet<Query>): string {
  const english = queries.filter((query) => query.page.locale === 'en-US');
  if (english.length === queries.length) return '';
  const others = queries.filter((query) => query.page.locale !== 'en-US');
  const hits = (subset: readonly Query[]) => subset.filter((query) => found.has(query)).length;
  return `; en-US ${share(hits(english), english.length).toFixed(1)}% of ${english.length}, other locales ${share(hits(others), others.length).toFixed(1)}% of ${others.length}`;
}

interface CorpusSpec {
  /** Row prefix. */
  name: string;
  /** What the corpus is, for the notes. */
  description: string;
  count: number;
  documents: () => Iterable<SyntheticDocument>;
  /** Words of the corpus's vocabulary besides its titles' words: a typo that spells one is drawn again. */
  vocabulary: ReadonlySet<string>;
  /** What the other-word-form queries inflect, for the notes. */
  forms: string;
  /** Appended to the first row's note: why a query set has no row for this corpus, if one has none. */
  without?: string;
}

async function measureCorpus(spec: CorpusSpec): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-search-quality-'));
  const engine = new SqliteEngine({ path: join(dir, 'search.sqlite') });
  try {
    const started = performance.now();
    const corpus = await indexCorpus(engine, spec.documents(), spec.count);
    console.error(
      `  ${spec.name}: indexed ${corpus.documents} documents (${(corpus.bytes / 1e6).toFixed(0)} MB of index.json) in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `${corpus.pages.length} of ${corpus.sampled} sampled pages have a title of their own`,
    );
    const known = (word: string) => corpus.titleWords.has(word) || spec.vocabulary.has(word);
    const typoRandom = seededRandom(7);
    const formRandom = seededRandom(11);
    const queries: Query[] = [];
    for (const page of corpus.pages) queries.push({ page, text: page.title, within: 1, set: 'exact' });
    for (const page of corpus.pages) {
      const typo = typoQuery(page.title, typoRandom, known);
      if (typo !== undefined) queries.push({ page, text: typo.text, within: 3, set: 'typo', detail: typo.kind });
    }
    for (const page of corpus.pages) {
      const form = wordFormQuery(page.title, page.words, formRandom);
      if (form !== undefined) queries.push({ page, text: form.text, within: 5, set: 'form' });
    }
    for (const page of corpus.pages) {
      for (const query of identifierQueries(page.title)) queries.push({ page, text: query.text, within: 3, set: 'identifier', detail: query.rule });
    }

    const search = (query: Query) => engine.search({ index: ALIAS, text: query.text, locales: [query.page.locale], size: 10, highlight: true });
    // Warm-up, so the timings below are of compiled code and a warm page cache.
    for (const query of queries.slice(0, 200)) await search(query);
    const found = new Set<Query>();
    const samples: number[] = [];
    // SEARCH_QUALITY_MISSES=N prints the first N misses of each set, with what was found instead.
    const missesShown = Number(process.env.SEARCH_QUALITY_MISSES ?? 0);
    const shown = new Map<Query['set'], number>();
    for (const query of queries) {
      const start = process.hrtime.bigint();
      const result = await search(query);
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
      const rank = result.documents.findIndex((hit) => hit.url === query.page.url);
      if (rank >= 0 && rank < query.within) found.add(query);
      else if ((shown.get(query.set) ?? 0) < missesShown) {
        shown.set(query.set, (shown.get(query.set) ?? 0) + 1);
        const top = result.documents.slice(0, query.within).map((hit) => hit.title).join(' | ');
        console.error(`  miss ${query.set}: '${query.text}' for '${query.page.title}' (rank ${rank}${result.corrected === undefined ? '' : `, corrected '${result.corrected}'`}): ${top}`);
      }
    }
    samples.sort((a, b) => a - b);

    const of = (set: Query['set']) => queries.filter((query) => query.set === set);
    const row = (set: Query['set'], label: string, min: number, note: (queries: Query[]) => string): BenchResult[] => {
      const subset = of(set);
      if (subset.length === 0) return [];
      return [{ name: `${spec.name}: ${label}`, value: share(subset.filter((query) => found.has(query)).length, subset.length), unit: '%', target: { min }, note: note(subset) }];
    };
    return [
      ...row('exact', 'exact names ranked first', 99.5, (subset) => `${subset.length} queries: whole titles of ${spec.description}${spec.without === undefined ? '' : `; ${spec.without}`}`),
      ...row('typo', 'one typo, page in top 3', 95, (subset) => `${subset.length} queries: ${breakdown(subset, found)}`),
      ...row('form', 'other word form, page in top 5', 97, (subset) => `${subset.length} queries: the title with ${spec.forms} in another inflection the page never uses${byLocale(subset, found)}`),
      ...row('identifier', 'identifier part, page in top 3', 95, (subset) => `${subset.length} queries: ${breakdown(subset, found)}`),
      {
        name: `${spec.name}: search p50`,
        value: percentile(samples, 0.5),
        unit: 'ms',
        target: { max: 2 },
        note: `${samples.length} searches above, size 10 with highlighting, one locale`,
      },
      { name: `${spec.name}: search p99`, value: percentile(samples, 0.99), unit: 'ms', target: { max: 10 } },
    ];
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every form of the English vocabulary, and the other words generated text is made of. */
function englishWords(): Set<string> {
  const words = new Set<string>([...FUNCTION_WORDS, ...ADJECTIVES]);
  for (const forms of englishLexicon().formsOf.values()) for (const form of forms) words.add(form);
  return words;
}

/**
 * Search quality on three corpora of different shapes, with query sets derived from sampled pages by general rules
 * (bench/quality/queries.ts, locale-queries.ts): the synthetic build (SEARCH_QUALITY_DOCUMENTS documents, 20,000 by
 * default; Zipf-drawn pseudo-words, seven locales, 1–20 KB), the English corpus of bench/corpus/quality-corpus.ts
 * (SEARCH_QUALITY_ENGLISH_DOCUMENTS, 8,000 by default; real words inflected, 3–40 KB, code identifiers as titles), and
 * the translated manual pages Debian ships (bench/corpus/manpages.ts, under SEARCH_QUALITY_MAN_ROOT, /usr/share/man by
 * default), measured per locale. SEARCH_QUALITY_CORPORA=synthetic,english,manpages picks some of them.
 */
export const searchQualitySuite: BenchSuite = {
  name: 'search-quality',
  description: `exact names, typos, other word forms and identifier parts on the synthetic build and an English corpus with code names; titles, title words, typos, phrases and latency per locale on Debian's manual pages (${MANPAGE_LOCALE_NAMES.join(', ')})`,
  async run(): Promise<BenchResult[]> {
    const corpora = new Set((process.env.SEARCH_QUALITY_CORPORA ?? 'synthetic,english,manpages').split(','));
    const synthetic = Number(process.env.SEARCH_QUALITY_DOCUMENTS ?? 20_000);
    const english = Number(process.env.SEARCH_QUALITY_ENGLISH_DOCUMENTS ?? QUALITY_CORPUS_DEFAULTS.documents);
    const lexicon = englishWords();
    const syntheticWords = new Set([...syntheticVocabulary(seededRandom(SYNTHETIC_DEFAULTS.seed), SYNTHETIC_DEFAULTS.vocabularySize).words].map(foldWord));
    const results: BenchResult[] = [];
    if (corpora.has('synthetic')) {
      results.push(
        ...(await measureCorpus({
          name: 'synthetic',
          description: `the synthetic build, ${synthetic.toLocaleString('en-US')} documents (not 50,000, to keep the run short)`,
          count: synthetic,
          documents: () => syntheticDocuments({ documents: synthetic }),
          vocabulary: new Set([...syntheticWords, ...lexicon]),
          forms: 'one of its real English words (the rest are pseudo-words)',
          without: 'no identifier-part row: no synthetic title is a code identifier',
        })),
      );
    }
    if (corpora.has('english')) {
      results.push(
        ...(await measureCorpus({
          name: 'english',
          description: `the English corpus (quality-corpus.ts), ${english.toLocaleString('en-US')} documents`,
          count: english,
          documents: () => qualityDocuments({ documents: english }),
          vocabulary: lexicon,
          forms: 'one word',
        })),
      );
    }
    if (corpora.has('manpages')) results.push(...(await measureManPages(process.env.SEARCH_QUALITY_MAN_ROOT ?? '/usr/share/man')));
    return results;
  },
};
