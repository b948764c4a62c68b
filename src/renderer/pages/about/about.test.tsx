import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'react-dom/server';
import { headTags } from '../../head.js';
import { dataUrl, matchPage, pagePathOf, parseDataUrl } from '../../routes.js';
import type { SiteIdentity } from '../../site.js';
import { App, pageHead } from '../views.js';

const SITE: SiteIdentity = { name: 'Field <notes>', description: 'What I learnt & kept.', footer: '© Ann' };
const PAGE = { kind: 'about', title: 'About · Field <notes>' } as const;

describe('the about page', () => {
  it('lives at /about and at its data route when routed', () => {
    const route = matchPage('/about', ['en-US']);
    assert.deepEqual(route, { kind: 'about' });
    assert.equal(pagePathOf({ kind: 'about' }), '/about');
    assert.equal(dataUrl('b1', { kind: 'about' }), '/_render/data/b1/en-US/about.json');
    assert.deepEqual(parseDataUrl('/_render/data/b1/en-US/about.json', ['en-US']), { buildId: 'b1', route: { kind: 'about' } });
    assert.equal(matchPage('/about/', ['en-US']), undefined);
  });

  it("shows the site's name and description, escaped, with links to the listings and the feed when rendered", () => {
    const html = renderToString(<App page={PAGE} site={SITE} locale="en-US" />);
    assert.match(html, /<h1>About Field &lt;notes&gt;<\/h1>/);
    assert.match(html, /<p>What I learnt &amp; kept.<\/p>/);
    for (const href of ['/', '/plog', '/feed.xml']) assert.match(html, new RegExp(`<main[^]*href="${href}"[^]*</main>`));
    assert.match(html, /<nav aria-label="Site">[^]*href="\/about"/, 'every page links to it');
  });

  it('gives its canonical URL and a description of its own when the head is written', () => {
    const head = pageHead(PAGE, SITE);
    assert.deepEqual(head, { title: PAGE.title, description: 'About Field <notes>: What I learnt & kept.', path: '/about' });
    assert.match(headTags(head, SITE, 'https://example.com'), /<link rel="canonical" href="https:\/\/example.com\/about">/);
  });
});
