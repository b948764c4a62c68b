import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { sourceFiles } from '../../test-support/source-files.js';
import { imageOfUrl, responsiveImage } from '../images/index.js';
import { renderPostBody, sanitisePostHtml, type ImageResolver } from './index.js';

const HASH = '0123456789abcdef0123456789abcdef';
const OURS = `/_render/image/${HASH}-480.jpg`;
/** Every name of ours is an image, stored at two widths in WebP and JPEG. */
const images: ImageResolver = (src) => {
  const name = imageOfUrl(src);
  return name === undefined ? undefined : responsiveImage({ hash: name.hash, widths: [480, 960], formats: ['webp', 'jpg'], width: 960, height: 640 });
};

/** Pieces an editor's slip, a pasted snippet or an attacker could put in a body, in HTML and in Markdown. */
const HOSTILE = [
  '<script>alert(1)</script>', '<SCRIPT SRC=//evil.example/x.js></SCRIPT>', '<img src=x onerror=alert(1)>', '<IMG SRC=x OnErRoR=alert(1)>',
  '<a href="javascript:alert(1)">a</a>', '<a href="JaVaScRiPt:alert(1)">a</a>', '<a href="jav&#x09;ascript:alert(1)">a</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">a</a>', '<a href="  javascript:alert(1)">a</a>',
  '<a href="java\u0000script:alert(1)">a</a>', '<a href="vbscript:msgbox(1)">a</a>', '<a href="data:text/html,<script>alert(1)</script>">a</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a>', '<img src="data:image/svg+xml,<svg onload=alert(1)>">',
  '<svg onload=alert(1)><circle r=1 /></svg>', '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', '<div style="position:fixed;top:0;left:0;width:100%;height:100%">x</div>',
  '<p style="background:url(javascript:alert(1))">x</p>', '<td style="text-align:right;position:absolute">x</td>',
  '<table><tr><td style="text-align:center;z-index:9">x</td></tr></table>', '<iframe src="//evil.example" srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="x.swf"></object>', '<embed src="x.swf">', '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
  '<input autofocus onfocus=alert(1)>', '<input type="checkbox" onclick=alert(1)>', '<!--<img src=x onerror=alert(1)>-->',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', '<style>@import "//evil.example/x.css";</style>',
  '<base href="//evil.example/">', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', '<link rel="stylesheet" href="//evil.example/x.css">',
  '<details open ontoggle=alert(1)>d</details>', '<img srcset="javascript:alert(1) 1x, /ok.png 2x" src="/ok.png">', '<![CDATA[<script>alert(1)</script>]]>',
  '<template><script>alert(1)</script></template>', '<xmp><script>alert(1)</script></xmp>', '</textarea><script>alert(1)</script>',
  '<video><source onerror=alert(1)></video>', '<h2 id="__SITESTACK_DATA__">x</h2>', '<h2 id="comments">x</h2>', '<a href="//evil.example">x</a>',
  '<a href="https://ｊａｖａｓｃｒｉｐｔ:alert(1)">x</a>', '<a href="javascript&colon;alert(1)">x</a>', '<div onmouseover="alert(1)">x</div>',
  '[x](javascript:alert(1))', '[x](JAVASCRIPT:alert(1))', '![x](javascript:alert(1))', '[x](data:text/html,alert)', '<javascript:alert(1)>',
  '[x]( javascript:alert(1) )', '[x](&#106;avascript:alert(1))', '[x]: javascript:alert(1)\n\n[x]', '```html\n<script>alert(1)</script>\n```',
  `![x](${OURS})`, `![x" onerror="alert(1)](${OURS} "t\\" onload=\\"alert(1)")`, `<picture><source srcset="javascript:alert(1) 1x" type="image/webp"><img src="${OURS}"></picture>`,
  `<img src="${OURS}" srcset="${OURS} 480w, https://evil.example/t.gif 960w" sizes="100vw">`, '<img src="https://evil.example/x.png" srcset="https://evil.example/x.png 2x">',
  `<source srcset="${OURS} 480w" type="text/html">`, `<picture><source src="javascript:alert(1)" srcset="${OURS}"></picture>`, `<img src="${OURS}" width="1e9" height="-1" loading="x" decoding="y">`,
  '`<script>`', '<https://example.org/?a=<b>>', '\u202e', '\u0000', '😀', '漢字', '<', '>', '"', "'", '=', '&', '#', ';', '\n', '\n\n', '`', '*', '|', '-', ':',
];

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('<a href="', '<img src=', '" onerror="alert(1)', ' style="', 'javascript:', '<svg', '<script', '</', '>') },
);
const hostileText = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));

const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'cite', 'action', 'formaction', 'xlink:href', 'poster', 'background', 'data']);
const FORBIDDEN_ELEMENTS = new Set([
  'script', 'style', 'iframe', 'frame', 'object', 'embed', 'svg', 'math', 'form', 'button', 'select', 'textarea', 'base', 'meta',
  'link', 'template', 'noscript', 'xmp', 'video', 'audio',
]);
/** A srcset every candidate of which is one of the site's uploads. */
const ourSrcset = (value: string | undefined) => value !== undefined && value.split(',').every((candidate) => /^\s*\/_render\/image\/[0-9a-f]{32}-\d+\.(?:jpg|png|gif|webp)(?:\s+\d+w)?\s*$/.test(candidate));
/** A URL's scheme as a browser reads it (none: a relative URL); only these may be given to a reader. */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);
const safeUrl = (url: string): boolean => {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  return scheme === undefined || SAFE_SCHEMES.has(scheme);
};

function elements(nodes: readonly ChildNode[]): Element[] {
  return nodes.flatMap((node) => (node.type === 'tag' || node.type === 'script' || node.type === 'style' ? [node, ...elements(node.children)] : []));
}

/** Every executable or escaping construct found in `html`, parsed by a real HTML parser; none is the only good answer. */
function problems(html: string): string[] {
  const found: string[] = [];
  for (const element of elements(parseDocument(html, { lowerCaseAttributeNames: true, lowerCaseTags: true }).children)) {
    if (FORBIDDEN_ELEMENTS.has(element.name)) found.push(`<${element.name}>`);
    if (element.name === 'source' && (!ourSrcset(element.attribs.srcset) || element.attribs.src !== undefined || !/^image\/(?:webp|avif)$/.test(element.attribs.type ?? ''))) {
      found.push(`a source of something else than the site's images: ${JSON.stringify(element.attribs)}`);
    }
    if (element.name === 'img' && (element.attribs.srcset !== undefined || element.attribs.sizes !== undefined) && !ourSrcset(element.attribs.srcset)) {
      found.push(`srcset or sizes on an image that is not one of the site's: ${JSON.stringify(element.attribs)}`);
    }
    if (element.name === 'input' && (element.attribs.type !== 'checkbox' || element.attribs.disabled === undefined)) found.push('an enabled form control');
    for (const [name, value] of Object.entries(element.attribs)) {
      if (name.startsWith('on')) found.push(`${name}= on <${element.name}>`);
      if (name === 'style' && !((element.name === 'td' || element.name === 'th') && /^text-align:(?:left|right|center);?$/.test(value))) {
        found.push(`style="${value}" on <${element.name}>`);
      }
      // eslint-disable-next-line no-control-regex -- a browser ignores these in a URL, so the check does too
      const browserUrl = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
      const urls = name === 'srcset' ? browserUrl.split(',').map((candidate) => candidate.replace(/\s.*$/, '')) : [browserUrl];
      if (URL_ATTRIBUTES.has(name) && urls.some((url) => !safeUrl(url))) found.push(`${name}="${value}" on <${element.name}>`);
    }
    const href = element.attribs.href;
    if (element.name === 'a' && href !== undefined && /^(?:https?:)?\/\//i.test(href) && element.attribs.rel !== 'noopener noreferrer') {
      found.push(`a link to another site without rel: ${href}`);
    }
    const id = element.attribs.id;
    if (id !== undefined && (id.startsWith('_') || ['root', 'content', 'comments'].includes(id))) found.push(`the page's own id "${id}"`);
  }
  return found;
}

describe('renderPostBody with hostile input', () => {
  it('never yields an executable construct when given hostile Markdown or HTML', () => {
    fc.assert(
      fc.property(hostileText, fc.constantFrom('markdown' as const, 'html' as const), (source, format) => {
        const html = renderPostBody(format, source, images);
        assert.deepEqual(problems(html), [], `${format}: ${JSON.stringify(source)} → ${html}`);
      }),
      { numRuns: 600 },
    );
  });

  it('yields HTML that sanitising again leaves as it is', () => {
    fc.assert(
      fc.property(hostileText, fc.constantFrom('markdown' as const, 'html' as const), (source, format) => {
        const html = renderPostBody(format, source, images);
        assert.equal(sanitisePostHtml(html), html);
      }),
      { numRuns: 300 },
    );
  });

  it('finds nothing wrong in any one piece alone, in either format', () => {
    for (const source of HOSTILE) {
      for (const format of ['markdown', 'html'] as const) assert.deepEqual(problems(renderPostBody(format, source, images)), [], `${format}: ${source}`);
    }
  });

  it('is the checker that would catch each construct it looks for', () => {
    for (const html of ['<script>x</script>', '<img onerror=x>', '<a href="javascript:x">', '<a href=" java\tscript:x">', '<img srcset="/a 1x, javascript:x 2x">', '<img srcset="/a.png 2x" src="/a.png">', `<source srcset="https://e.org/a.png" type="image/webp">`, '<p style="top:0">', '<a href="https://e.org">', '<h2 id="__x">', '<input type=text>']) {
      assert.notDeepEqual(problems(html), [], html);
    }
  });
});

describe('sanitisePostHtml', () => {
  it('keeps what posts are written with: sections, code, notes, tables, lists, images and links', () => {
    const html = [
      '<h2 id="setup">Setup</h2>', '<p>Some <strong>bold</strong>, <em>em</em>, <code>code</code>, <del>gone</del> and <a href="/plog/x">a link</a>.</p>',
      '<pre><code class="language-ts"><span class="hljs-keyword">const</span> a = 1;</code></pre>',
      '<div class="notecard note"><p><strong>Note:</strong> kept.</p></div>',
      '<table><thead><tr><th style="text-align:right">n</th></tr></thead><tbody><tr><td style="text-align:right">1</td></tr></tbody></table>',
      '<ol start="3"><li>three</li></ol>', '<img src="/img/a.webp" alt="A cat" width="640" height="480" loading="lazy" />', '<blockquote><p>q</p></blockquote>',
    ].join('\n');
    assert.equal(sanitisePostHtml(html), html);
  });

  it('drops scripts with their text, and forms, frames and unknown elements leaving their words', () => {
    assert.equal(sanitisePostHtml('<p>a<script>evil()</script>b</p><form><label>Name</label><input name="n"><button>Go</button></form><blink>c</blink>'), '<p>ab</p>Namec');
  });

  it('marks links to other sites noopener noreferrer and leaves the site\'s own links as they are', () => {
    assert.equal(sanitisePostHtml('<a href="https://example.org" rel="opener" target="_blank">x</a>'), '<a href="https://example.org" rel="noopener noreferrer">x</a>');
    assert.equal(sanitisePostHtml('<a href="/plog/a#b">x</a><a href="#top">y</a><a href="mailto:a@example.org">z</a>'), '<a href="/plog/a#b">x</a><a href="#top">y</a><a href="mailto:a@example.org">z</a>');
  });

  it('keeps ids of any script, renames the page\'s own and drops the ones that cannot be', () => {
    assert.equal(sanitisePostHtml('<h2 id="缓存">a</h2><h2 id="comments">b</h2><h2 id="__SITESTACK_DATA__">c</h2><h2 id="a b">d</h2>'), '<h2 id="缓存">a</h2><h2 id="section-comments">b</h2><h2>c</h2><h2>d</h2>');
  });

  it('leaves a post no id that a page of the renderer gives its own elements', () => {
    const renderer = fileURLToPath(new URL('../../renderer', import.meta.url));
    const ids = new Set(sourceFiles(renderer).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bid="([^"{}$]+)"/g)].map((match) => match[1] ?? '')));
    assert.ok(ids.has('content') && ids.has('comment-name'), [...ids].join(' '));
    for (const id of ids) assert.doesNotMatch(sanitisePostHtml(`<h2 id="${id}">x</h2>`), new RegExp(`id="${id}"`), id);
  });

  it('refuses data: images and protocol-relative URLs', () => {
    assert.equal(sanitisePostHtml('<img src="data:image/png;base64,AAAA" alt="a"><img src="//evil.example/t.gif" alt="b">'), '<img alt="a" /><img alt="b" />');
  });
});

describe('sanitisePostHtml of images', () => {
  it('keeps the picture a Markdown image of ours renders to, exactly', () => {
    const html = renderPostBody('markdown', `![A cat](${OURS})`, images);
    assert.match(html, /^<p><picture><source type="image\/webp" srcset="[^"]+" sizes="[^"]+" \/><img src="[^"]+" srcset="[^"]+" sizes="[^"]+" width="960" height="640" alt="A cat" loading="lazy" decoding="async" \/><\/picture><\/p>\n$/);
    assert.equal(sanitisePostHtml(html), html);
  });

  it('drops srcset and sizes from an image that is not ours, and a source of anything else', () => {
    assert.equal(sanitisePostHtml('<img src="https://example.org/a.png" srcset="https://example.org/a.png 2x" sizes="50vw" alt="a" loading="lazy" />'), '<img src="https://example.org/a.png" alt="a" loading="lazy" />');
    assert.equal(sanitisePostHtml(`<img src="${OURS}" srcset="${OURS} 480w, /other.png 960w" alt="" />`), `<img src="${OURS}" alt="" />`);
    assert.equal(sanitisePostHtml(`<picture><source srcset="/other.webp" type="image/webp" /><source srcset="${OURS}" /><img src="${OURS}" alt="" /></picture>`), `<picture><img src="${OURS}" alt="" /></picture>`);
    assert.equal(sanitisePostHtml(`<img src="${OURS}" width="12px" height="99" loading="never" decoding="async" alt="" />`), `<img src="${OURS}" height="99" decoding="async" alt="" />`);
  });
});
