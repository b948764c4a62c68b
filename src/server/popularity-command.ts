import { join, resolve } from 'node:path';
import { ERRORS } from '../error-codes.js';
import { importPopularityCsv } from '../search/index.js';
import { parseCommandArgs } from './cli-args.js';
import type { Command } from './command.js';

const usage = 'sitestack popularity import <csv of url,pageviews>';

/** `sitestack popularity import <csv>`: replaces the stored pageviews the content build turns into popularity. */
export const popularityCommand: Command = {
  name: 'popularity',
  summary: 'import pageviews from a url,pageviews CSV into <DATA_DIR>/popularity.sqlite (replaces the previous import)',
  usage,
  async run({ args, config, out }) {
    const { positionals } = parseCommandArgs({ args, allowPositionals: true, options: {} }, usage);
    if (positionals[0] !== 'import' || positionals.length !== 2) {
      throw ERRORS.USAGE("expected 'import <csv>'", usage);
    }
    const csv = resolve(positionals[1] as string);
    const result = await importPopularityCsv(csv, join(config.dataDir, 'popularity.sqlite'));
    out.write(`popularity: imported ${result.rows} rows for ${result.urls} URLs from ${csv}\n`);
    return 0;
  },
};
