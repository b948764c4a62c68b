import { seededRandom } from '../../src/seeded-random.js';

const WORDS = ['cache', 'page', 'origin', 'front', 'edge', 'purge', 'search', 'index', 'render', 'reader', 'editor', 'café', '缓存', 'draft', 'latency', 'header', 'surrogate', 'sitemap', 'robots'];

/** Page `i` of the site, the same on every run. */
export function staticSitePage(i: number): string {
  const random = seededRandom(i + 1);
  const word = () => WORDS[Math.floor(random() * WORDS.length)] ?? 'page';
  const sentence = () => Array.from({ length: 10 + Math.floor(random() * 12) }, word).join(' ');
  const sections: string[] = [];
  for (let s = 0; s < 8; s++) {
    sections.push(`<section><h2 id="s${s}">${word()} ${word()}</h2>`, ...Array.from({ length: 4 }, () => `<p>${sentence()} <a href="/docs/${word()}">${word()}</a>.</p>`));
    sections.push(`<ul>${Array.from({ length: 4 }, () => `<li>${sentence()}</li>`).join('')}</ul><pre><code>const ${word()} = fetch('/${word()}');</code></pre></section>`);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${word()} ${word()} ${i}</title><meta name="description" content="${sentence()}">` +
    `<link rel="canonical" href="/docs/page-${i}"></head><body><header><a href="/">Site</a></header><nav>${WORDS.map((w) => `<a href="/docs/${w}">${w}</a>`).join(' ')}</nav>` +
    `<main><h1>Page ${i}</h1>${sections.join('')}</main><footer>© the site</footer></body></html>`;
}
