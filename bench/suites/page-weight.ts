import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildClient, createRenderer } from '../../src/renderer/index.js';
import { spawnServer, type BenchResult, type BenchSuite } from '../lib.js';

/** Renders timed per page type, after as many untimed ones. */
const RENDERS = 200;
/** The budget for the client JavaScript of any page, gzipped. */
const JS_BUDGET_KB = 30;

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/**
 * What each page type costs a reader and the server: the gzipped client JavaScript the page loads (every `<script
 * src>` of its HTML, fetched and gzipped as a browser would receive it) and its gzipped HTML, beside the time of an
 * uncached render (renderer → origin, no page cache) of that page. The origin runs in its own process with the demo
 * content; the renderer in this one, behind node:http, so a render is timed from request to last byte.
 */
export const pageWeightSuite: BenchSuite = {
  name: 'page-weight',
  description: 'gzipped client JS and HTML per page type, beside the uncached render time of each',
  async run(): Promise<BenchResult[]> {
    const origin = await spawnServer('servers/origin.ts');
    const buildDir = mkdtempSync(join(tmpdir(), 'sitestack-bench-weight-'));
    let server: Server | undefined;
    try {
      await buildClient({ outDir: buildDir });
      const renderer = createRenderer({ apiBase: origin.url, buildDir });
      server = createServer((req, res) => renderer(req, res));
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const list = (await (await fetch(`${origin.url}/api/v1/plog/`)).json()) as { groups: { posts: { oid: string }[] }[] };
      const oid = list.groups[0]?.posts[0]?.oid ?? 'missing';
      const pages = { home: '/', archive: '/plog', post: `/plog/${oid}`, search: '/en-US/search', '404': '/no/such/page' };
      const results: BenchResult[] = [];
      for (const [type, path] of Object.entries(pages)) {
        const html = await (await fetch(`${base}${path}`)).text();
        let scriptBytes = 0;
        for (const [, src] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) {
          scriptBytes += gzipSync(Buffer.from(await (await fetch(`${base}${src ?? ''}`)).arrayBuffer()), { level: 9 }).length;
        }
        const times: number[] = [];
        for (let i = 0; i < RENDERS * 2; i++) {
          const start = performance.now();
          await (await fetch(`${base}${path}`)).arrayBuffer();
          if (i >= RENDERS) times.push(performance.now() - start);
        }
        times.sort((a, b) => a - b);
        results.push(
          {
            name: `client JS of the ${type} page, gzipped`,
            value: scriptBytes / 1024,
            unit: 'KB',
            target: { max: JS_BUDGET_KB },
            note: `HTML ${(gzipSync(html, { level: 9 }).length / 1024).toFixed(1)} KB gzipped`,
          },
          { name: `uncached render of the ${type} page`, value: percentile(times, 0.5), unit: 'ms', note: `p99 ${percentile(times, 0.99).toFixed(2)} ms, renderer → origin` },
        );
      }
      return results;
    } finally {
      await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
      await origin.stop();
      rmSync(buildDir, { recursive: true, force: true });
    }
  },
};
