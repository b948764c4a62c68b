import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoPosts } from '../seed.js';
import { headingSlug, HIGHLIGHT_MAX_LENGTH } from './render.js';
import { renderPostBody } from './index.js';

/** Golden cases: what a save makes of each construct an editor writes (lines of HTML joined, to read as a page). */
const GOLDEN: { does: string; source: string; html: string[] }[] = [
  {
    does: 'renders GitHub tables with their column alignment',
    source: '| Name | Size |\n|:-----|-----:|\n| a | 1 |',
    html: ['<table>', '<thead>', '<tr>', '<th style="text-align:left">Name</th>', '<th style="text-align:right">Size</th>', '</tr>', '</thead>',
      '<tbody>', '<tr>', '<td style="text-align:left">a</td>', '<td style="text-align:right">1</td>', '</tr>', '</tbody>', '</table>', ''],
  },
  {
    does: 'renders task lists as disabled checkboxes and strikethrough as <s>',
    source: '- [ ] to do\n- [x] ~~done~~',
    html: ['<ul class="contains-task-list">', '<li class="task-list-item"><input type="checkbox" disabled class="task-list-item-checkbox" /> to do</li>',
      '<li class="task-list-item"><input type="checkbox" disabled checked class="task-list-item-checkbox" /> <s>done</s></li>', '</ul>', ''],
  },
  {
    does: 'highlights fenced code in a language highlight.js knows, with classes only',
    source: '```js\nconst a = "<b>";\n```',
    html: ['<pre><code class="language-js"><span class="hljs-keyword">const</span> a = <span class="hljs-string">"&lt;b&gt;"</span>;', '</code></pre>', ''],
  },
  { does: 'escapes code in a language highlight.js does not know', source: '```nosuchlanguage\n<b>&\n```', html: ['<pre><code class="language-nosuchlanguage">&lt;b&gt;&amp;', '</code></pre>', ''] },
  {
    does: 'gives headings unique ids of their words in any script, as the content build\'s sections read them',
    source: '## Setup\n\n## Setup\n\n### Café au lait\n\n## 缓存 策略\n\n## ???\n\n## Comments',
    html: ['<h2 id="setup">Setup</h2>', '<h2 id="setup-2">Setup</h2>', '<h3 id="café-au-lait">Café au lait</h3>', '<h2 id="缓存-策略">缓存 策略</h2>',
      '<h2 id="section">???</h2>', '<h2 id="section-comments">Comments</h2>', ''],
  },
  { does: 'counts each post\'s slugs on their own', source: '## Setup', html: ['<h2 id="setup">Setup</h2>', ''] },
  {
    does: 'makes links, marking those to other sites, and bare URLs links',
    source: '[archive](/plog) and [example](https://example.org "Ex") and https://example.com/x',
    html: ['<p><a href="/plog">archive</a> and <a href="https://example.org" title="Ex" rel="noopener noreferrer">example</a> and <a href="https://example.com/x" rel="noopener noreferrer">https://example.com/x</a></p>', ''],
  },
  {
    does: 'keeps an image with its alt text and leaves a link or image to a script URL as text',
    source: '![A cat](/img/cat.webp) [x](javascript:alert(1)) ![y](javascript:alert(1))',
    html: ['<p><img src="/img/cat.webp" alt="A cat" /> [x](javascript:alert(1)) ![y](javascript:alert(1))</p>', ''],
  },
  {
    does: 'lets safe raw HTML through and drops the rest',
    source: '<div class="notecard note">\n\n**Note**\n\n</div>\n\n<script>alert(1)</script>\n\n<b onclick="x()">b</b>',
    html: ['<div class="notecard note">', '<p><strong>Note</strong></p>', '</div>', '', '<p><b>b</b></p>', ''],
  },
];

describe('renderPostBody of Markdown', () => {
  for (const { does, source, html } of GOLDEN) {
    it(does, () => assert.equal(renderPostBody('markdown', source), html.join('\n')));
  }

  it('leaves a code block too long to highlight plain', () => {
    const long = `\`\`\`js\n${'let a = 1;\n'.repeat(HIGHLIGHT_MAX_LENGTH / 10)}\`\`\``;
    assert.doesNotMatch(renderPostBody('markdown', long), /hljs-/);
    assert.equal(renderPostBody('markdown', '```\nplain\n```'), '<pre><code>plain\n</code></pre>\n');
  });
});

describe('renderPostBody of HTML', () => {
  it('leaves every demo post exactly as written', () => {
    for (const post of demoPosts()) assert.equal(renderPostBody('html', post.body_html), post.body_html, post.oid);
  });
});

describe('headingSlug', () => {
  it('keeps letters and digits of any script, lower-cased and NFC, and joins the rest with single hyphens', () => {
    const slugs = new Map([
      ['Hello, World!', 'hello-world'], ['Cafe\u0301  Crème', 'café-crème'], ['  --a--b--  ', 'a-b'], ['Ünïcode 😀 2026', 'ünïcode-2026'],
      ['日本語のテキスト', '日本語のテキスト'], ['', 'section'], ['😀', 'section'],
    ]);
    for (const [text, slug] of slugs) assert.equal(headingSlug(text), slug, text);
    assert.ok(headingSlug('word '.repeat(100)).length <= 80);
    assert.doesNotMatch(headingSlug('word '.repeat(100)), /-$/);
  });
});
