import { renderMarkdown, renderPostBody, sanitisePostHtml } from '../../src/origin/markdown/index.js';
import { seededRandom } from '../../src/seeded-random.js';
import type { BenchResult, BenchSuite } from '../lib.js';

/** The post: 50 KB of Markdown, as an editor writes it. */
const POST_BYTES = 50_000;
const WARMUP_RUNS = 20;
const RUNS = 200;
/**
 * A save renders once: a small part of the 3 s an edit has to reach every surface. The p99 only reports: on the shared
 * two-core machine it measures the neighbours' load more than the code (124 to 526 ms at a load of 4 to 5).
 */
const SAVE_BUDGET_MS = 100;

const WORDS = ['cache', 'page', 'origin', 'front', 'edge', 'purge', 'search', 'index', 'render', 'reader', 'editor', 'café', '缓存', 'draft', 'latency', 'header'];

/**
 * A post of every construct the desk's editor writes: sections, paragraphs with emphasis, links and code, lists, task
 * lists, tables, quotes and fenced code in two languages, drawn from a seeded generator so every run renders the same.
 */
export function markdownPost(bytes = POST_BYTES): string {
  const random = seededRandom(35);
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? 'page';
  const sentence = () => Array.from({ length: 8 + Math.floor(random() * 10) }, word).join(' ');
  const blocks = [
    () => `## ${word()} ${word()}`,
    () => `${sentence()} *${word()}* and **${word()}**, \`${word()}()\`, [${word()}](/plog/${word()}) and https://example.org/${word()}.`,
    () => Array.from({ length: 4 }, () => `- ${sentence()}`).join('\n'),
    () => `- [x] ${sentence()}\n- [ ] ${sentence()}`,
    () => `| ${word()} | ${word()} | n |\n|:--|---|--:|\n${Array.from({ length: 5 }, (_, i) => `| ${word()} | ~~${word()}~~ | ${i} |`).join('\n')}`,
    () => `> ${sentence()}`,
    () => `\`\`\`ts\nexport function ${word()}Of(value: string): number {\n  return value.length * 2; // ${sentence()}\n}\n\`\`\``,
    () => `\`\`\`sql\nSELECT oid, title FROM posts WHERE pub_date < '2026-11-01' ORDER BY pub_date DESC LIMIT 10;\n\`\`\``,
  ];
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const block = blocks[Math.floor(random() * blocks.length)]?.() ?? sentence();
    parts.push(block);
    size += Buffer.byteLength(block) + 2;
  }
  return parts.join('\n\n');
}

/** Median and 99th percentile of `runs` timed calls, after a warm-up. */
function time(fn: () => unknown): { p50: number; p99: number } {
  for (let i = 0; i < WARMUP_RUNS; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

export const markdownSuite: BenchSuite = {
  name: 'markdown',
  description: `render and sanitise a ${POST_BYTES / 1000} KB Markdown post, as a save does (issue 35)`,
  async run(): Promise<BenchResult[]> {
    const source = markdownPost();
    const rendered = renderMarkdown(source);
    const render = time(() => renderMarkdown(source));
    const sanitise = time(() => sanitisePostHtml(rendered));
    const save = time(() => renderPostBody('markdown', source));
    const note = `${Buffer.byteLength(source)} bytes of Markdown → ${Buffer.byteLength(rendered)} bytes of HTML; ${RUNS} runs`;
    return [
      { name: 'markdown-it render with highlight.js, p50', value: render.p50, unit: 'ms', note },
      { name: 'sanitise the rendered HTML alone, p50', value: sanitise.p50, unit: 'ms', baseline: 'markdown-it render with highlight.js, p50' },
      { name: 'render + sanitise (a save), p50', value: save.p50, unit: 'ms', baseline: 'markdown-it render with highlight.js, p50', target: { max: SAVE_BUDGET_MS } },
      { name: 'render + sanitise (a save), p99', value: save.p99, unit: 'ms' },
    ];
  },
};
