import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERRORS } from '../error-codes.js';
import type { Command } from './command.js';

/** The checkout this module belongs to, from `src/server/` or `dist/server/`. */
const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Whether the development install that the benchmarks run on (the TypeScript compiler and the bench/ sources) is there. */
function benchAvailable(root: string): boolean {
  if (!existsSync(join(root, 'bench', 'run.ts'))) return false;
  try {
    createRequire(join(root, 'package.json')).resolve('typescript');
    return true;
  } catch {
    return false;
  }
}

function withoutSourceCondition(options: string | undefined): string {
  return (options ?? '').replace(/--conditions=sitestack-source/g, '').trim();
}

/** `sitestack bench [suite ...]`: the same runner as `npm run bench`. */
export const benchCommand: Command = {
  name: 'bench',
  summary: 'run the benchmark suites (all, or the ones named) and print their table with ratios and targets',
  usage: 'sitestack bench [suite ...]   e.g. sitestack bench page-cache',
  async run({ args }) {
    const option = args.find((arg) => arg.startsWith('-'));
    if (option !== undefined) throw ERRORS.USAGE(`bench: unknown option '${option}'; usage: sitestack bench [suite ...]`);
    if (!benchAvailable(PROJECT_ROOT)) {
      throw ERRORS.BENCH_UNAVAILABLE(PROJECT_ROOT);
    }
    // npm run bench compiles the bench with the project's sources before it runs them.
    // The bench runs the compiled build, so a caller's condition that loads workspace packages from their TypeScript
    // sources (the test runner's) must not reach it.
    const env = { ...process.env, NODE_OPTIONS: withoutSourceCondition(process.env.NODE_OPTIONS) };
    const child = spawn('npm', ['run', '--silent', 'bench', '--', ...args], { cwd: PROJECT_ROOT, stdio: 'inherit', env });
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    return code ?? (signal === null ? 1 : 128);
  },
};
