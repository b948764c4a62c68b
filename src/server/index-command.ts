import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { ERRORS } from '../error-codes.js';
import { isAppError } from '../errors.js';
import { createEngine, runIndexer, summarizeRun, walkIndexFiles, type IndexMode, type IndexRunOptions, type IndexRunReport } from '../search/index.js';
import { nonNegativeInteger, parseCommandArgs } from './cli-args.js';
import type { Command } from './command.js';

const usage =
  'sitestack index <root> [--update | --recreate] [--priority-prefix <folder>] [--max-failures <n>] [--allow-shrink] [--prefix <name>] [--workers <n>]';
/** `--help` adds the refusal rule; usage errors name only the synopsis. */
const help = [
  usage,
  '',
  'A full or --recreate run will not make live an index with no documents, or with fewer than half the documents of the',
  'live index it replaces: it exits 1 naming both counts, deletes its new index and leaves the alias as it was.',
  '--allow-shrink accepts such an index. A <root> without any index.json exits 2.',
].join('\n');
/** The runner's refusals that are a verdict on the build, not a usage error: exit 1 like failed items. */
const REFUSALS = new Set([ERRORS.INDEX_EMPTY_REFUSED.code, ERRORS.INDEX_SHRINK_REFUSED.code]);

async function countFiles(root: string): Promise<number> {
  let count = 0;
  for await (const _path of walkIndexFiles(root)) count++;
  return count;
}

/** `sitestack index <root>`: publishes a content build into the search engine named by SEARCH_URL. */
export const indexCommand: Command = {
  name: 'index',
  summary: 'index a content build (every index.json under <root>) into the search engine: full run, --update or --recreate',
  usage: help,
  async run({ args, config, logger, out }) {
    const { values, positionals } = parseCommandArgs(
      {
        args,
        allowPositionals: true,
        options: {
          update: { type: 'boolean' },
          recreate: { type: 'boolean' },
          'priority-prefix': { type: 'string' },
          'max-failures': { type: 'string' },
          'allow-shrink': { type: 'boolean' },
          prefix: { type: 'string' },
          workers: { type: 'string' },
        },
      },
      usage,
    );
    if (positionals.length !== 1) throw ERRORS.USAGE(`expected one content build root, got ${positionals.length}`, usage);
    if (values.update === true && values.recreate === true) throw ERRORS.USAGE('--update and --recreate exclude each other', usage);
    if (values['priority-prefix'] !== undefined && values.recreate !== true) {
      throw ERRORS.USAGE('--priority-prefix only applies to --recreate', usage);
    }
    if (values['allow-shrink'] === true && values.update === true) {
      throw ERRORS.USAGE('--allow-shrink only applies to a full or --recreate run', usage);
    }
    const prefix = values.prefix ?? config.searchPrefix;
    if (!/^[a-z0-9][a-z0-9_-]{0,180}$/.test(prefix)) {
      throw ERRORS.USAGE(`--prefix must be lower-case letters, digits, '_' or '-', got '${prefix}'`);
    }
    const mode: IndexMode = values.update === true ? 'update' : values.recreate === true ? 'recreate' : 'full';
    const root = resolve(positionals[0] as string);
    const maxFailures = values['max-failures'] === undefined ? undefined : nonNegativeInteger('--max-failures', values['max-failures'], usage);
    const workers = values.workers === undefined ? undefined : nonNegativeInteger('--workers', values.workers, usage);
    const rootInfo = await stat(root).catch(() => undefined);
    if (rootInfo?.isDirectory() !== true) throw ERRORS.BUILD_ROOT_MISSING(root);
    const options: IndexRunOptions = { engine: createEngine(config.searchUrl, {}, { logger }), root, prefix, mode, logger };
    if (maxFailures !== undefined) options.maxFailures = maxFailures;
    if (workers !== undefined) options.workers = workers;
    if (values['priority-prefix'] !== undefined) options.priorityPrefix = values['priority-prefix'];
    if (values['allow-shrink'] === true) options.allowShrink = true;

    const tty = (out as NodeJS.WriteStream).isTTY === true;
    const bar = tty ? new cliProgress.SingleBar({ stream: out as NodeJS.WriteStream, format: 'indexing [{bar}] {value}/{total} files | {documents} docs | {failures} failed | {eta_formatted}' }, cliProgress.Presets.shades_classic) : undefined;
    try {
      if (bar !== undefined) {
        bar.start(await countFiles(root).catch(() => 0), 0, { documents: 0, failures: 0 });
        options.onProgress = (progress) => bar.update(progress.files, { documents: progress.documents, failures: progress.failures });
      }
      let report: IndexRunReport;
      try {
        report = await runIndexer(options);
      } catch (error) {
        if (!(isAppError(error) && REFUSALS.has(error.code))) throw error;
        bar?.stop();
        out.write(`${error.message}\n`);
        return 1;
      }
      bar?.stop();
      for (const bad of report.badFiles) out.write(`bad file ${bad.path}: ${bad.problem}\n`);
      for (const failure of report.failures) out.write(`failed ${failure.id} (${failure.path}): ${failure.error.type}: ${failure.error.reason}\n`);
      out.write(`${summarizeRun(report)}\n`);
      if (!report.ok) {
        out.write(
          report.mode === 'full'
            ? `${report.failureCount} failed item(s), more than --max-failures ${options.maxFailures ?? 0}: the new index was deleted and the alias left as it was\n`
            : `${report.failureCount} failed item(s), more than --max-failures ${options.maxFailures ?? 0}\n`,
        );
        return 1;
      }
      return 0;
    } finally {
      bar?.stop();
      await options.engine.close();
    }
  },
};
