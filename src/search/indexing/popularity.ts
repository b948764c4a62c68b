import { createReadStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { ERRORS } from '../../error-codes.js';
import { useWriteAheadLog } from '../../sqlite-schema.js';

/** The key pageviews are stored and looked up by: the URL's path, lower-cased, without a trailing slash. */
export function popularityKey(url: string): string | undefined {
  let path = url.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return undefined;
    }
  }
  if (!path.startsWith('/') || path.length > 2048 || /[\s\p{Cc}]/u.test(path)) return undefined;
  const trimmed = path.replace(/\/+$/, '');
  return (trimmed === '' ? '/' : trimmed).toLowerCase();
}

/** One CSV line split into fields (RFC 4180 quoting within the line); undefined when its quotes are unbalanced. */
export function splitCsvLine(line: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) return undefined;
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (i === line.length) return fields;
      if (line[i] !== ',') return undefined;
      i++;
    } else {
      const comma = line.indexOf(',', i);
      if (comma === -1) {
        fields.push(line.slice(i));
        return fields;
      }
      fields.push(line.slice(i, comma));
      i = comma + 1;
    }
  }
}

export interface CsvProblem {
  line: number;
  message: string;
}

export interface ParsedPopularity {
  /** Pageviews per popularity key; repeated URLs are summed. */
  views: Map<string, number>;
  problems: CsvProblem[];
  rows: number;
}

/** Longest accepted CSV line; a longer one is reported, not parsed. */
const MAX_LINE_LENGTH = 4096;

/**
 * Parses the lines of a `url,pageviews` CSV. The first line is a header when it reads `url,pageviews`; blank lines
 * are skipped; every other line must hold a URL path (or an http(s) URL) and a non-negative integer.
 */
export async function parsePopularityCsv(lines: AsyncIterable<string> | Iterable<string>): Promise<ParsedPopularity> {
  const views = new Map<string, number>();
  const problems: CsvProblem[] = [];
  let number = 0;
  let rows = 0;
  for await (const raw of lines) {
    number++;
    const line = raw.replace(/^\uFEFF/, '').replace(/\r$/, '');
    if (line.trim() === '') continue;
    if (line.length > MAX_LINE_LENGTH) {
      problems.push({ line: number, message: `line is longer than ${MAX_LINE_LENGTH} characters` });
      continue;
    }
    const fields = splitCsvLine(line);
    if (fields === undefined) {
      problems.push({ line: number, message: 'unbalanced quotes' });
      continue;
    }
    if (number === 1 && fields.length === 2 && fields[0]?.trim().toLowerCase() === 'url' && /^page_?views$/i.test(fields[1]?.trim() ?? '')) {
      continue;
    }
    if (fields.length !== 2) {
      problems.push({ line: number, message: `expected 2 fields (url,pageviews), got ${fields.length}` });
      continue;
    }
    const [url = '', count = ''] = fields;
    const key = popularityKey(url);
    if (key === undefined) {
      problems.push({ line: number, message: `url '${url.slice(0, 80)}' is not a path or http(s) URL` });
      continue;
    }
    const pageviews = /^\s*\d{1,15}\s*$/.test(count) ? Number(count) : Number.NaN;
    if (!Number.isSafeInteger(pageviews)) {
      problems.push({ line: number, message: `pageviews '${count.slice(0, 40)}' is not a non-negative integer` });
      continue;
    }
    rows++;
    views.set(key, (views.get(key) ?? 0) + pageviews);
  }
  return { views, problems, rows };
}

/** Pageviews per URL path in `<dataDir>/popularity.sqlite`, replaced as a whole by each import. */
export class PopularityStore {
  readonly #db: Database.Database;

  constructor(path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    this.#db.pragma('busy_timeout = 5000');
    useWriteAheadLog(this.#db);
    this.#db.exec('CREATE TABLE IF NOT EXISTS pageviews (url TEXT PRIMARY KEY, views INTEGER NOT NULL) STRICT');
    // The largest count, which every normalised value is out of, is then one index step (see normalizedOf).
    this.#db.exec('CREATE INDEX IF NOT EXISTS pageviews_by_views ON pageviews (views)');
  }

  /** Replaces every stored count in one transaction. */
  replaceAll(views: ReadonlyMap<string, number>): void {
    const insert = this.#db.prepare('INSERT INTO pageviews (url, views) VALUES (?, ?)');
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM pageviews').run();
      for (const [url, count] of views) insert.run(url, count);
    })();
  }

  /** Popularity from 0 to 1 per key: pageviews ÷ the largest pageviews (all 0 when nothing is stored). */
  normalized(): Map<string, number> {
    const rows = this.#db.prepare('SELECT url, views FROM pageviews').all() as { url: string; views: number }[];
    const max = rows.reduce((largest, row) => Math.max(largest, row.views), 0);
    return new Map(rows.map((row) => [row.url, max === 0 ? 0 : row.views / max]));
  }

  /** The popularity of one key, as `normalized()` gives it: for a live update of one page, without reading them all. */
  normalizedOf(key: string): number {
    const row = this.#db
      .prepare('SELECT (SELECT views FROM pageviews WHERE url = ?) AS views, (SELECT max(views) FROM pageviews) AS max')
      .get(key) as { views: number | null; max: number | null };
    return row.views === null || row.max === null || row.max === 0 ? 0 : row.views / row.max;
  }

  close(): void {
    this.#db.close();
  }
}

export interface ImportResult {
  rows: number;
  urls: number;
}

/**
 * Imports a `url,pageviews` CSV into the store, replacing what was there. Any bad row stops the import with every
 * problem named by line number (the first 20 in the message, all in `details`) and the stored counts unchanged.
 */
export async function importPopularityCsv(csvPath: string, storePath: string): Promise<ImportResult> {
  const stream = createReadStream(csvPath, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw ERRORS.CSV_UNREADABLE(csvPath, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  const parsed = await parsePopularityCsv(createInterface({ input: stream, crlfDelay: Infinity }));
  if (parsed.problems.length > 0) {
    const shown = parsed.problems.slice(0, 20).map((problem) => `  line ${problem.line}: ${problem.message}`);
    const more = parsed.problems.length > 20 ? `\n  … and ${parsed.problems.length - 20} more` : '';
    throw ERRORS.CSV_INVALID.with({ details: parsed.problems }, csvPath, { count: parsed.problems.length, listed: `${shown.join('\n')}${more}` });
  }
  if (parsed.rows === 0) throw ERRORS.CSV_INVALID(csvPath);
  const store = new PopularityStore(storePath);
  try {
    store.replaceAll(parsed.views);
  } finally {
    store.close();
  }
  return { rows: parsed.rows, urls: parsed.views.size };
}
