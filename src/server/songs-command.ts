import { readFileSync, statSync } from 'node:fs';
import { ERRORS } from '../error-codes.js';
import type { AppError } from '../errors.js';
import { createAffiliateLookups, openSongs, parseCatalogue, parseDuration } from '../songs/index.js';
import type { Command, CommandContext } from './command.js';

const USAGE = `sitestack songs import <file.csv>
       sitestack songs refresh [--older-than 30d]

  import    adds or updates songs from a CSV file with the header id,name,artist,album,year
            (ids are positive integers; a repeated id updates the song). Every bad row is reported
            by line and then nothing is imported.
  refresh   asks the providers again for saved lookups fetched longer ago than --older-than
            (a number and s, m, h, d or w; default 30d). A failed refresh keeps the saved answer.`;

/** Largest catalogue file read, in bytes. */
const MAX_CATALOGUE_BYTES = 256 * 1024 * 1024;
/** How many bad rows an import failure lists before it summarises the rest. */
const MAX_LISTED_PROBLEMS = 50;

function usageError(message: string): AppError {
  return ERRORS.USAGE(message, USAGE);
}

function readCatalogue(file: string): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (error) {
    throw ERRORS.SONGS_FILE_UNREADABLE(file, (error as NodeJS.ErrnoException).code ?? String(error));
  }
  if (size > MAX_CATALOGUE_BYTES) throw ERRORS.SONGS_FILE_TOO_LARGE(file, size, MAX_CATALOGUE_BYTES);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    if (error instanceof TypeError) throw ERRORS.SONGS_FILE_INVALID(file);
    throw ERRORS.SONGS_FILE_UNREADABLE(file, (error as NodeJS.ErrnoException).code ?? String(error));
  }
}

async function importSongs({ args, config, logger, out }: CommandContext): Promise<number> {
  const [file, ...rest] = args;
  if (file === undefined || rest.length > 0) throw usageError('songs import takes exactly one file');
  if (file.startsWith('-')) throw usageError(`unknown option '${file}'`);
  const { songs, problems } = parseCatalogue(readCatalogue(file));
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((problem) => `  line ${problem.line}: ${problem.message}`);
    if (problems.length > MAX_LISTED_PROBLEMS) listed.push(`  … and ${problems.length - MAX_LISTED_PROBLEMS} more`);
    throw ERRORS.SONGS_FILE_INVALID(file, { count: problems.length, listed: listed.join('\n') });
  }
  const opened = openSongs({ dataDir: config.dataDir, config: config.songs, logger, seed: false });
  try {
    const summary = opened.store.upsertSongs(songs);
    out.write(
      `imported ${songs.length} song(s) from ${file}: ${summary.inserted} new, ${summary.updated} updated, ${summary.unchanged} unchanged` +
        `${summary.lookupsCleared > 0 ? `; ${summary.lookupsCleared} saved lookup(s) of renamed songs dropped` : ''}\n`,
    );
  } finally {
    opened.close();
  }
  return 0;
}

function olderThanMs(args: string[]): number {
  let value = '30d';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--older-than') {
      const next = args[++i];
      if (next === undefined) throw usageError('--older-than needs a duration such as 30d');
      value = next;
    } else if (arg.startsWith('--older-than=')) {
      value = arg.slice('--older-than='.length);
    } else {
      throw usageError(`unknown ${arg.startsWith('-') ? 'option' : 'argument'} '${arg}'`);
    }
  }
  const ms = parseDuration(value);
  if (ms === undefined) throw usageError(`expected --older-than to be a duration such as 30d, 12h, 90m, 45s or 2w, got '${value}'`);
  return ms;
}

async function refreshLookups({ args, config, logger, out }: CommandContext): Promise<number> {
  const ms = olderThanMs(args);
  const opened = openSongs({ dataDir: config.dataDir, config: config.songs, logger, seed: false });
  try {
    const lookups = createAffiliateLookups({ store: opened.store, providers: opened.providers, logger, providerTimeoutMs: config.songs.providerTimeoutMs });
    const summary = await lookups.refreshOlderThan(ms);
    out.write(`refreshed ${summary.refreshed} saved lookup(s); ${summary.failed.length} failed\n`);
    for (const failure of summary.failed) out.write(`  song ${failure.songId} on ${failure.provider}: ${failure.error}\n`);
    return summary.failed.length === 0 ? 0 : 1;
  } finally {
    opened.close();
  }
}

export const songsCommand: Command = {
  name: 'songs',
  summary: 'import a song catalogue from CSV, or refresh saved affiliate lookups',
  usage: USAGE,
  run(context) {
    const [action, ...args] = context.args;
    if (action === 'import') return importSongs({ ...context, args });
    if (action === 'refresh') return refreshLookups({ ...context, args });
    return Promise.reject(usageError(action === undefined ? 'songs needs an action' : `unknown action '${action}'`));
  },
};
