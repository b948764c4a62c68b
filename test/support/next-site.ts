import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/edge/test-support/edge-harness.js';

/** The Next.js test application (pages and app router, ISR, SSR, data routes, API routes): test/fixtures/next-site. */
export const NEXT_SITE_DIR = fileURLToPath(new URL('../fixtures/next-site/', import.meta.url));

/** One path per kind of page the application serves, for tests that walk them all. */
export const NEXT_SITE_PATHS = {
  /** Pages-router ISR listing (`getStaticProps` with `revalidate`), `Surrogate-Key: home posts`. */
  home: '/',
  /** Pages-router static page (no data fetching), `Surrogate-Key: about`. */
  static: '/about',
  /** Pages-router ISR post, prerendered at build, with a data route; `Surrogate-Key: post-1 posts`. */
  isr: '/posts/1',
  /** Pages-router SSR with Next's default, private `Cache-Control`; `Surrogate-Key: live posts`. */
  ssr: '/live',
  /** Pages-router SSR that sets `public, s-maxage=60, stale-while-revalidate=300`; `Surrogate-Key: news posts`. */
  cacheableSsr: '/news',
  /** Pages-router SSR that sets a cookie on an otherwise shareable (`public, s-maxage=60`) answer. */
  cookie: '/welcome',
  /** Pages-router API route: `GET` lists the posts (`Surrogate-Key: posts`), `POST` echoes its JSON body. */
  api: '/api/posts',
  /** On-demand ISR (`POST { "paths": [...] }`), for pages of either router. */
  revalidate: '/api/revalidate',
  /** App-router ISR post, `Cache-Tag: post-1,posts`. */
  appIsr: '/blog/1',
  /** App-router page rendered per request. */
  appSsr: '/dashboard',
  /** App-router route handler rendered per request. */
  appRoute: '/app-api/time',
  /** App-router page streamed per request: its shell at once, its late part `?ms=` milliseconds later (500). */
  stream: '/stream',
  /** API route answering after `?ms=` milliseconds (1000, at most 60000). */
  slow: '/api/slow',
  /** API route echoing `{ method, url, headers, bodyBytes }` of what reached Next. */
  echo: '/api/echo',
} as const;

/** The path of a pages-router page's data route, as client-side navigation fetches it. */
export function dataRoute(buildId: string, pagePath: string): string {
  return `/_next/data/${buildId}${pagePath === '/' ? '/index' : pagePath}.json`;
}

export interface NextSiteBuild {
  buildId: string;
  /** False when an earlier build of the same inputs was reused. */
  built: boolean;
  /** How long `next build` took, or 0 when reused. */
  ms: number;
}

const NEXT_BIN = createRequire(import.meta.url).resolve('next/dist/bin/next');
const BUILD_DIR = join(NEXT_SITE_DIR, '.next');
/** Written after a successful build: the hash of what it was built from. */
const STAMP = join(BUILD_DIR, 'sitestack-build-inputs.sha256');
/** Held (a directory, created atomically) by the one test process that builds; the others wait for it. */
const LOCK = join(tmpdir(), `sitestack-next-site-${createHash('sha256').update(NEXT_SITE_DIR).digest('hex').slice(0, 16)}.lock`);
const BUILD_TIMEOUT_MS = 600_000;
const START_TIMEOUT_MS = 60_000;
const OUTPUT_LIMIT = 64 * 1024;

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

/** Output kept for failure messages: the last `OUTPUT_LIMIT` characters of the child's stdout and stderr. */
function captureOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Signals the child's whole process group (Next forks workers), ignoring a group that is already gone. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already exited.
  }
}

/** Process groups still running when this test process exits are killed, so a failed test leaves no Next behind. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
});

/** A Node process in a process group of its own, its output kept, killed with this test process at the latest. */
export interface TrackedProcess {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr, the last 64 KiB), for failure messages. */
  output(): string;
  /** SIGTERM to its process group, SIGKILL after 5 s; resolves when it has exited. */
  stop(): Promise<void>;
  /** SIGKILL to its process group at once (the server dies mid-run); resolves when it has exited. */
  kill(): Promise<void>;
}

/** Runs `node <args>` in the fixture's folder. */
export function spawnTracked(args: readonly string[], env: NodeJS.ProcessEnv): TrackedProcess {
  const child = spawn(process.execPath, args, { cwd: NEXT_SITE_DIR, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return {
    child,
    output: captureOutput(child),
    async stop() {
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
    },
    async kill() {
      signalGroup(child, 'SIGKILL');
      await exited(child);
    },
  };
}

async function runBuild(): Promise<void> {
  const { child, output } = spawnTracked([NEXT_BIN, 'build'], nextSiteEnv());
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), BUILD_TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  }).finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`next build in ${NEXT_SITE_DIR} failed (exit ${code}):\n${output()}`);
}

/** Takes the build lock, waiting for another test process that holds it; a holder that died no longer counts. */
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
    const holder = Number(readText(join(LOCK, 'pid')));
    if (Number.isInteger(holder) && holder > 0 && !isAlive(holder)) rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`another process held ${LOCK} for ${BUILD_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
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

export interface RunningNextSite {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  buildId: string;
  /** Process id of `next start`, which leads its process group. */
  pid: number;
  output: TrackedProcess['output'];
  /** On-demand ISR of pages of either router through the application's own API route; throws unless it answers 200. */
  revalidate(paths: readonly string[]): Promise<void>;
  stop: TrackedProcess['stop'];
  kill: TrackedProcess['kill'];
}

export interface StartNextSiteOptions {
  /** The content directory the pages read (`posts.json`); see {@link createNextSiteContent}. */
  contentDir: string;
  /**
   * The port to listen on, to start the application again where a stopped one was (an upstream that comes back).
   * @default a free port, found by a listen probe
   */
  port?: number;
}

/** Polls `url` until Next answers, failing early with its output when it exits first. */
async function answering(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (child.exitCode === null && child.signalCode === null) {
    try {
      const response = await fetch(`${url}${NEXT_SITE_PATHS.static}`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`next start did not answer at ${url} within ${START_TIMEOUT_MS} ms:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`next start exited (${child.exitCode ?? child.signalCode}) before answering at ${url}:\n${output()}`);
}

/**
 * `next start` of the fixture's build (made first if needed) on 127.0.0.1, once it answers. A free port taken between
 * the probe and Next's listen is tried again with another.
 */
export async function startNextSite(options: StartNextSiteOptions): Promise<RunningNextSite> {
  const { buildId } = await buildNextSite();
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const { child, output, stop, kill } = spawnTracked([NEXT_BIN, 'start', '--hostname', '127.0.0.1', '--port', String(port)], nextSiteEnv(options.contentDir));
    try {
      await answering(url, child, output);
    } catch (error) {
      await kill();
      if (options.port === undefined && attempt < 3 && /EADDRINUSE/.test(output())) continue;
      throw error;
    }
    return {
      url,
      port,
      buildId,
      pid: child.pid ?? 0,
      output,
      stop,
      kill,
      async revalidate(paths) {
        const response = await fetch(`${url}${NEXT_SITE_PATHS.revalidate}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ paths }),
        });
        const text = await response.text();
        if (response.status !== 200) throw new Error(`revalidating ${paths.join(' ')}: ${response.status} ${text}`);
      },
    };
  }
}

/** One post of the application's content (`posts.json`). */
export interface NextSitePost {
  id: string;
  title: string;
  body: string;
}

/** A private copy of the application's content, which a test edits while Next runs. */
export interface NextSiteContent {
  dir: string;
  posts(): NextSitePost[];
  /** Replaces the post with that id, or adds it; the file is replaced whole, so a render never reads half of it. */
  setPost(post: NextSitePost): void;
  removePost(id: string): void;
  remove(): void;
}

/** Copies the fixture's content (what `next build` prerendered) into a fresh temporary directory. */
export function createNextSiteContent(): NextSiteContent {
  const dir = mkdtempSync(join(tmpdir(), 'sitestack-next-content-'));
  const file = join(dir, 'posts.json');
  writeFileSync(file, readFileSync(join(NEXT_SITE_DIR, 'content', 'posts.json')));
  const posts = () => (JSON.parse(readFileSync(file, 'utf8')) as { posts: NextSitePost[] }).posts;
  const write = (next: NextSitePost[]) => {
    writeFileSync(`${file}.tmp`, JSON.stringify({ posts: next }, null, 2));
    renameSync(`${file}.tmp`, file);
  };
  return {
    dir,
    posts,
    setPost(post) {
      const current = posts();
      const index = current.findIndex((existing) => existing.id === post.id);
      if (index === -1) current.push(post);
      else current[index] = post;
      write(current);
    },
    removePost(id) {
      write(posts().filter((post) => post.id !== id));
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
