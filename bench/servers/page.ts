import { createElement as h, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { seededRandom } from '../../src/seeded-random.js';

/** The headers every benchmark server sends with the page. */
export const PAGE_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public,max-age=86400' } as const;

const POSTS = Array.from({ length: 75 }, (_, i) => ({
  oid: `post-${i}`,
  title: `Post number ${i}: notes on caching, rendering and purging`,
  date: `2026.${String((i % 12) + 1).padStart(2, '0')}`,
  summary: `A short summary of post ${i}, long enough to look like a real teaser of a blog post on the home page.`,
  categories: ['Web development', 'Node', 'Performance'],
}));

function Page({ url }: { url: string }): ReactElement {
  return h(
    'html',
    { lang: 'en' },
    h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, 'Peterbe.com — latest posts'), h('link', { rel: 'stylesheet', href: '/_render/static/b1/app.css' })),
    h(
      'body',
      null,
      h('header', null, h('nav', null, h('a', { href: '/' }, 'Home'), h('a', { href: '/plog' }, 'Archive'), h('a', { href: '/en-US/search' }, 'Search'))),
      h(
        'main',
        { 'data-url': url },
        POSTS.map((post) =>
          h(
            'article',
            { key: post.oid },
            h('h2', null, h('a', { href: `/plog/${post.oid}` }, post.title)),
            h('p', { className: 'date' }, post.date),
            h('p', null, post.summary),
            h('ul', null, post.categories.map((category) => h('li', { key: category }, h('a', { href: `/oc-${category}` }, category)))),
          ),
        ),
      ),
      h('footer', null, '© sitestack'),
    ),
  );
}

/** Server-renders the ~30 KB home page with React, as the real renderer does on every miss. */
export function renderPage(url: string): string {
  return `<!doctype html>${renderToString(h(Page, { url }))}`;
}

/** The page rendered once, as bytes: what the prebuilt-bytes servers write. */
export const PAGE_BYTES = Buffer.from(renderPage('/'), 'utf8');

/**
 * A post's page of prose, the same on every run: paragraphs of words drawn from a few hundred, which compress about as
 * the demo's posts do (gzip 6 + brotli 5 ≈ 0.56 of identity), far less than the listing above. On such a page an
 * entry once kept only the coding a client asked for first.
 */
function prosePage(): string {
  const random = seededRandom(32);
  const syllables = ['ca', 'che', 'ren', 'der', 'pur', 'ge', 'edge', 'node', 'lo', 'ad', 'ver', 'sion', 'tra', 'fic', 'pa', 'ge', 'sto', 're', 'ko', 'mi'];
  const words = Array.from({ length: 400 }, () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join(''));
  const paragraph = () => Array.from({ length: 60 }, () => words[Math.floor(random() * words.length)]).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title></head><body><main><article>${Array.from({ length: 25 }, () => `<p>${paragraph()}.</p>`).join('')}</article></main></body></html>`;
}

/** The prose page as bytes: what the `prose` renderer and bare server write. */
export const PROSE_BYTES = Buffer.from(prosePage(), 'utf8');
