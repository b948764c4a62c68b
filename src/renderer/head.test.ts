import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { focusableCodeBlocks, headTags } from './head.js';
import { pageHead } from './pages/views.js';
import { SITE_DEFAULTS } from './site.js';

describe('focusableCodeBlocks', () => {
  it('makes every pre focusable and labelled when the body has code blocks', () => {
    assert.equal(
      focusableCodeBlocks('<p>a</p><pre class="x"><code>1</code></pre><PRE>2</PRE><prefix>'),
      '<p>a</p><pre tabindex="0" role="region" aria-label="Code example" class="x"><code>1</code></pre><pre tabindex="0" role="region" aria-label="Code example">2</PRE><prefix>',
    );
  });

  it('leaves a pre alone when it already has a tabindex', () => {
    assert.equal(focusableCodeBlocks('<pre tabindex="-1">x</pre>'), '<pre tabindex="-1">x</pre>');
  });
});

describe('headTags', () => {
  it('escapes the description and names absolute URLs on the base when the page has an address', () => {
    const post = {
      kind: 'post' as const,
      title: 'A "quoted" <title>',
      post: { oid: 'a-post', title: 'A', body_html: '', summary: 'Fish & "chips"', pub_date: '2026-01-01', categories: [] },
      comments: { count: 0, items: [] },
    };
    const tags = headTags(pageHead(post, SITE_DEFAULTS), SITE_DEFAULTS, 'https://example.com');
    assert.match(tags, /<meta name="description" content="Fish &amp; &quot;chips&quot;">/);
    assert.match(tags, /<link rel="canonical" href="https:\/\/example.com\/plog\/a-post">/);
    assert.match(tags, /<meta property="og:title" content="A &quot;quoted&quot; &lt;title&gt;">/);
    assert.match(tags, /<meta property="og:type" content="article">/);
    const category = headTags(pageHead({ kind: 'category', title: 'Posts in C#', name: 'C#', posts: [] }, SITE_DEFAULTS), SITE_DEFAULTS, 'https://example.com');
    assert.match(category, /<link rel="canonical" href="https:\/\/example.com\/plog\/category\/C%23">/);
    assert.match(category, /<meta property="og:type" content="website">/);
    const missing = headTags(pageHead({ kind: 'not-found', title: 'Not found', pathname: '/x' }, SITE_DEFAULTS), SITE_DEFAULTS, 'http://h');
    assert.doesNotMatch(missing, /canonical|og:url/);
  });
});
