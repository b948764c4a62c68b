import { resolve } from 'node:path';
import { ERRORS } from '../error-codes.js';
import { loadPopularity, runContentBuild } from '../search/index.js';
import { parseCommandArgs } from './cli-args.js';
import { FROM_SITE_ARGS, FROM_SITE_USAGE, fromSiteBuild, refuseFromSiteOptionsAlone } from './from-site-build.js';
import type { Command } from './command.js';

const usage = `sitestack content-build [--out <dir>] ${FROM_SITE_USAGE}`;

/** `sitestack content-build`: writes one index.json per published post of the origin (API_BASE). */
export const contentBuildCommand: Command = {
  name: 'content-build',
  summary: 'write <out>/<locale>/plog/<oid>/index.json for every published post of the origin, or every page of a site (--from-site)',
  usage,
  async run({ args, config, logger, out }) {
    const { values, positionals } = parseCommandArgs({ args, allowPositionals: true, options: { out: { type: 'string' }, ...FROM_SITE_ARGS } }, usage);
    if (positionals.length > 0) throw ERRORS.USAGE(`unexpected argument '${positionals[0]}'`, usage);
    if (values.out !== undefined && values.out.trim() === '') throw ERRORS.USAGE('--out needs a folder', usage);
    refuseFromSiteOptionsAlone(values, usage);
    if (values['from-site'] !== undefined) return fromSiteBuild(values, { dataDir: config.dataDir, logger, out }, usage);
    const started = performance.now();
    const report = await runContentBuild({
      apiBase: config.apiBase,
      maxAnswerBytes: config.originMaxAnswerBytes,
      out: resolve(values.out ?? 'build'),
      popularity: loadPopularity(config.dataDir),
      logger,
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    out.write(`content build: ${report.posts} posts written to ${report.out}, ${report.skipped.length} gone meanwhile, ${seconds} s\n`);
    return 0;
  },
};
