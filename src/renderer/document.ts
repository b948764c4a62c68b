import { escapeHtml } from '../html-escape.js';
import type { Bootstrap } from './types.js';

const STYLE = `body{font:17px/1.6 system-ui,sans-serif;max-width:46rem;margin:0 auto;padding:0 1rem;color:#1b1b1b}
.site-header{display:flex;justify-content:space-between;align-items:baseline;border-bottom:1px solid #ddd;padding:1rem 0}
.site-header nav a{margin-left:1rem}.site-name{font-weight:700;text-decoration:none}a{color:#0b57d0}
.post-list{padding-left:1.2rem}.post-line time,.post-meta,.comment-meta time{color:#666;font-size:.9em}
.comment-text{white-space:pre-line}.notecard{border-left:4px solid #0b57d0;padding:.2rem 1rem;background:#f3f6fc}
pre{overflow:auto;background:#f6f6f6;padding:.75rem}.site-footer{border-top:1px solid #ddd;margin-top:3rem;padding:1rem 0;color:#666}
main:focus{outline:none}`;

/** JSON safe inside a `<script>` element: no `</script>`, `<!--` or line separators can end or confuse it. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** The whole HTML document around the React markup, with the bootstrap data and the client bundle. */
export function renderDocument(options: { bodyHtml: string; bootstrap: Bootstrap; scriptUrl: string }): string {
  const { bodyHtml, bootstrap, scriptUrl } = options;
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(bootstrap.page.title)}</title><style>${STYLE}</style>` +
    `<script type="module" src="${escapeHtml(scriptUrl)}"></script></head>` +
    `<body><div id="root">${bodyHtml}</div>` +
    `<script id="__SITESTACK_DATA__" type="application/json">${scriptJson(bootstrap)}</script></body></html>`
  );
}
