import { escapeHtml } from '../html-escape.js';
import { headTags } from './head.js';
import { pageHead } from './pages/views.js';
import { STYLE } from './style.js';
import type { Bootstrap } from './types.js';

/** JSON safe inside a `<script>` element: no `</script>`, `<!--` or line separators can end or confuse it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The whole HTML document around the React markup, with the head's meta tags (absolute URLs on `baseUrl`, the
 * request's public base URL), the bootstrap data and the client bundle. Without `scriptUrl` the page is a still
 * picture (the desk's preview): neither the bundle nor its bootstrap data.
 */
export function renderDocument(options: { bodyHtml: string; bootstrap: Bootstrap; scriptUrl: string | undefined; baseUrl: string }): string {
  const { bodyHtml, bootstrap, scriptUrl, baseUrl } = options;
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(bootstrap.page.title)}</title>${headTags(pageHead(bootstrap.page, bootstrap.site), bootstrap.site, baseUrl)}` +
    `<style>${STYLE}</style>` +
    (scriptUrl === undefined ? '' : `<script type="module" src="${escapeHtml(scriptUrl)}"></script>`) +
    `</head><body><div id="root">${bodyHtml}</div>` +
    (scriptUrl === undefined ? '' : `<script id="__SITESTACK_DATA__" type="application/json">${scriptJson(bootstrap)}</script>`) +
    `</body></html>`
  );
}
