import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../src/log.js';
import { runFromSite, FROM_SITE_DEFAULTS } from '../../src/search/index.js';
import { extractPage } from '../../src/search/indexing/from-site/extract.js';
import { parseSelector } from '../../src/search/indexing/from-site/selector.js';
import { spawnServer, timeCalls, type BenchResult, type BenchSuite } from '../lib.js';
import { staticSitePage } from '../corpus/static-site-pages.js';

const PAGES = 1000;
/** Politeness lifted for the measure: the defaults (4 at a time, 10 a second) bound a real run at 10 pages/s by design. */
const UNPACED = { rate: 1_000_000, concurrency: FROM_SITE_DEFAULTS.concurrency };

export const fromSiteSuite: BenchSuite = {
  name: 'from-site',
  description: `content-build --from-site against a local static site of ${PAGES} pages of about 15 KB (issue 36)`,
  async run(): Promise<BenchResult[]> {
    const site = await spawnServer('servers/static-site.ts', [String(PAGES)]);
    const dir = mkdtempSync(join(tmpdir(), 'sitestack-bench-from-site-'));
    try {
      const out = join(dir, 'build');
      const timed = async () => {
        const started = performance.now();
        const report = await runFromSite({ site: site.url, out, ...UNPACED, logger: silentLogger() });
        return { report, perSecond: report.pages / ((performance.now() - started) / 1000) };
      };
      const first = await timed();
      const second = await timed();
      const parsed = parseSelector(FROM_SITE_DEFAULTS.selector);
      if (!parsed.ok) throw new Error(parsed.problem);
      const html = staticSitePage(7);
      const extract = timeCalls(300, () => extractPage(html, parsed.alternatives));
      const note = `${first.report.fetched} fetched, then ${second.report.unchanged} unchanged; concurrency ${UNPACED.concurrency}, no rate limit`;
      return [
        { name: 'first build: pages fetched, read and written per second', value: first.perSecond, unit: 'pages/s', note },
        { name: 'second build: pages unchanged (304) per second', value: second.perSecond, unit: 'pages/s' },
        { name: `extract one page (${Buffer.byteLength(html)} bytes), p50`, value: extract.p50, unit: 'ms' },
      ];
    } finally {
      await site.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
