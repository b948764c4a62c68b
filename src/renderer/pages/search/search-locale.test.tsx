import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderToString } from 'react-dom/server';
import type { SiteIdentity } from '../../site.js';
import { App, localeOfPage } from '../views.js';

const SITE: SiteIdentity = { name: 'Notes', description: 'Notes.', footer: '' };

describe('the header search box', () => {
  it("searches in the search page's locale and links to that locale's search page when the page is a locale's search page", () => {
    const html = renderToString(<App page={{ kind: 'search', title: 'Search', locale: 'zh-CN' }} site={SITE} locale="en-US" />);
    assert.match(html, /<form class="site-search"[^>]*action="\/zh-CN\/search"/);
    assert.match(html, /<nav aria-label="Site">[^]*href="\/zh-CN\/search"/);
    assert.doesNotMatch(html, /\/en-US\/search/);
  });

  it("searches in the site's first locale when the page has no locale of its own", () => {
    assert.equal(localeOfPage({ kind: 'about', title: 'About' }, 'en-US'), 'en-US');
    assert.equal(localeOfPage({ kind: 'search', title: 'Search', locale: 'ja' }, 'en-US'), 'ja');
    const html = renderToString(<App page={{ kind: 'about', title: 'About' }} site={SITE} locale="en-US" />);
    assert.match(html, /<form class="site-search"[^>]*action="\/en-US\/search"/);
  });
});
