import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/edge/test-support/edge-harness.js';
import { buildNextSite, NEXT_BIN, NEXT_SITE_DIR, nextSiteEnv } from './next-site-build.js';
import { spawnTracked, type TrackedProcess } from './process-group.js';

export { buildNextSite, NEXT_SITE_DIR, nextSiteEnv, type NextSiteBuild } from './next-site-build.js';

const START_TIMEOUT_MS = 60_000;

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
  /** Home, about and every post, at the origin the request came through (`X-Forwarded-Host`, else `Host`). */
  sitemap: '/sitemap.xml',
  /** Allows all but `/api/`, and names the sitemap. */
  robots: '/robots.txt',
} as const;

/** The path of a pages-router page's data route, as client-side navigation fetches it. */
export function dataRoute(buildId: string, pagePath: string): string {
  return `/_next/data/${buildId}${pagePath === '/' ? '/index' : pagePath}.json`;
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
    const { child, output, stop, kill } = spawnTracked([NEXT_BIN, 'start', '--hostname', '127.0.0.1', '--port', String(port)], NEXT_SITE_DIR, nextSiteEnv(options.contentDir));
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

