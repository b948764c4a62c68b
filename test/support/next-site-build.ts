import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signalGroup, spawnTracked } from './process-group.js';

/** The Next.js test application (pages and app router, ISR, SSR, data routes, API routes): test/fixtures/next-site. */
export const NEXT_SITE_DIR = fileURLToPath(new URL('../fixtures/next-site/', import.meta.url));

export interface NextSiteBuild {
  buildId: string;
  /** False when an earlier build of the same inputs was reused. */
  built: boolean;
  /** How long `next build` took, or 0 when reused. */
  ms: number;
}

export const NEXT_BIN = createRequire(import.meta.url).resolve('next/dist/bin/next');
const BUILD_DIR = join(NEXT_SITE_DIR, '.next');
/** Written after a successful build: the hash of what it was built from. */
const STAMP = join(BUILD_DIR, 'sitestack-build-inputs.sha256');
/** Held (a directory, created atomically) by the one test process that builds; the others wait for it. */
const LOCK = join(tmpdir(), `sitestack-next-site-${createHash('sha256').update(NEXT_SITE_DIR).digest('hex').slice(0, 16)}.lock`);
const BUILD_TIMEOUT_MS = 600_000;

/** What `next build` reads: the fixture's files (not its output or the file Next writes) and the versions of Next and React. */
function inputsHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (name === '.next' || name === 'node_modules' || name === 'next-env.d.ts') continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else hash.update(`${relative(NEXT_SITE_DIR, path)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(NEXT_SITE_DIR);
  const require = createRequire(import.meta.url);
  for (const name of ['next', 'react', 'react-dom']) hash.update(`${name}@${(require(`${name}/package.json`) as { version: string }).version}\0`);
  return hash.digest('hex');
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * The environment the application runs in: production, no telemetry, and the given content directory (at build time
 * none: the fixture's own content, never the calling shell's).
 */
export function nextSiteEnv(contentDir?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };
  if (contentDir === undefined) delete env.NEXT_SITE_CONTENT_DIR;
  else env.NEXT_SITE_CONTENT_DIR = contentDir;
  return env;
}


async function runBuild(): Promise<void> {
  const { child, output } = spawnTracked([NEXT_BIN, 'build'], NEXT_SITE_DIR, nextSiteEnv());
  writeFileSync(join(LOCK, 'builder'), String(child.pid ?? ''));
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), BUILD_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`next build in ${NEXT_SITE_DIR} failed (exit ${code}):\n${output()}`);
}

/**
 * Takes the build lock, waiting for another test process that holds it; a holder that died no longer counts once the
 * build it started (which outlives a killed parent, in its own group) is gone as well.
 */
async function lockBuild(): Promise<() => void> {
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(join(LOCK, 'pid'), String(process.pid));
      return () => rmSync(LOCK, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const [holder, builder] = ['pid', 'builder'].map((name) => Number(readText(join(LOCK, name))));
    if (isPid(holder) && !isAlive(holder) && !(isPid(builder) && isAlive(builder))) rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`another process held ${LOCK} for ${BUILD_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function isPid(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value > 0;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let building: Promise<NextSiteBuild> | undefined;

/**
 * Builds the fixture with `next build`, once per test process and only when its inputs changed since the last build
 * (any process's: the hash is kept in `.next`, and a lock keeps concurrent test files from building at once).
 */
export function buildNextSite(): Promise<NextSiteBuild> {
  building ??= (async () => {
    const inputs = inputsHash();
    const release = await lockBuild();
    try {
      const buildId = () => readText(join(BUILD_DIR, 'BUILD_ID')) ?? '';
      if (readText(STAMP) === inputs) return { buildId: buildId(), built: false, ms: 0 };
      rmSync(STAMP, { force: true });
      const started = performance.now();
      await runBuild();
      const ms = Math.round(performance.now() - started);
      writeFileSync(STAMP, `${inputs}\n`);
      process.stderr.write(`next build of ${NEXT_SITE_DIR} took ${(ms / 1000).toFixed(1)} s\n`);
      return { buildId: buildId(), built: true, ms };
    } finally {
      release();
    }
  })();
  building.catch(() => {
    building = undefined;
  });
  return building;
}
