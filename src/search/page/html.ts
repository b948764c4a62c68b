import { escapeHtml } from '../query-text.js';

/**
 * The static search page `/<locale>/search`: the same bytes for every query (the query lives in `location.search`
 * only), so the page cache and the edge keep one copy per locale. The script fills it in.
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
<section id="search-app" data-locale="${lang}">
  <h1>Search</h1>
  <form id="search-form" role="search" action="" method="get">
    <input id="search-input" name="q" type="search" maxlength="200" required aria-label="Search text" autocomplete="off">
    <select id="search-sort" name="sort" aria-label="Order">
      <option value="best">Best match</option>
      <option value="relevance">Relevance</option>
      <option value="popularity">Popularity</option>
    </select>
    <button type="submit">Search</button>
  </form>
  <p id="search-status" role="status" aria-live="polite"></p>
  <p id="search-suggestions"></p>
  <ol id="search-results"></ol>
  <nav id="search-pages" aria-label="Result pages"></nav>
</section>
</main>
<script src="${escapeHtml(scriptUrl)}" defer></script>
</body>
</html>
`;
}
