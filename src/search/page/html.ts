import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { escapeHtml } from '../../html-escape.js';
import { SearchShell } from './shell.js';

/**
 * The static search page `/<locale>/search`: the same bytes for every query (the query lives in `location.search`
 * only), so the page cache and the edge keep one copy per locale: the renderer's search shell in a bare document.
 */
export function searchPageHtml(locale: string, scriptUrl: string): string {
  const lang = escapeHtml(locale);
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Search</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 50rem; margin: 2rem auto; padding: 0 1rem; }
  mark { background: #ffe58a; }
  #search-status.error { color: #b00020; }
  #search-results li { margin: 1rem 0; }
  #search-pages a, #search-pages span { margin-right: .5rem; }
</style>
</head>
<body>
<main>
${renderToStaticMarkup(createElement(SearchShell, { locale }))}
</main>
<script src="${escapeHtml(scriptUrl)}" defer></script>
</body>
</html>
`;
}
