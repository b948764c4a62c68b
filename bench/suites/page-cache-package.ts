import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchResult, BenchSuite } from '../lib.js';

const INSTALL_BUDGET_MS = 10_000;
const MOST_PACKAGES = 3;
const RUNS = 3;

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
}

function bytesUnder(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

/** Installed packages: each folder under node_modules with a package.json of its own, scoped ones counted each. */
function packagesUnder(nodeModules: string): number {
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith('.'))
    .reduce((sum, name) => sum + (name.startsWith('@') ? readdirSync(join(nodeModules, name)).length : 1), 0);
}

export const pageCacheTarballSuite: BenchSuite = {
  name: 'page-cache-package',
  description: 'the page cache package packed, then installed alone into an empty folder as a user would (issue 36)',
  async run(): Promise<BenchResult[]> {
    const folder = mkdtempSync(join(tmpdir(), 'bench-page-cache-package-'));
    try {
      const packStart = performance.now();
      const tarball = join(folder, npm(['pack', '--silent', '--pack-destination', folder], resolve('packages/page-cache')).trim().split('\n').pop()!);
      const packMs = performance.now() - packStart;
      const installs: number[] = [];
      let app = '';
      for (let run = 0; run < RUNS; run++) {
        app = join(folder, `app-${run}`);
        mkdirSync(app);
        writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
        const start = performance.now();
        npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
        installs.push(performance.now() - start);
      }
      installs.sort((a, b) => a - b);
      const note = `median of ${RUNS} installs from the npm cache (--prefer-offline)`;
      return [
        { name: 'npm install of the tarball into an empty folder', value: installs[Math.floor(RUNS / 2)]!, unit: 'ms', note, target: { max: INSTALL_BUDGET_MS } },
        { name: 'packages installed', value: packagesUnder(join(app, 'node_modules')), unit: 'packages', target: { max: MOST_PACKAGES } },
        { name: 'node_modules on disk after the install', value: bytesUnder(join(app, 'node_modules')), unit: 'bytes' },
        { name: 'tarball', value: statSync(tarball).size, unit: 'bytes' },
        { name: 'npm pack (a build of the package, then the tarball)', value: packMs, unit: 'ms' },
      ];
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};
