import { useEffect } from 'react';
import { startSearchPage } from './app.js';

/**
 * The search page's markup, the same for every query: `startSearchPage` (app.ts) fills it in from `location.search`.
 * The renderer shows it inside the site's layout and the standalone page (html.ts) inside a bare document, so the
 * script always finds the same elements.
 */
export function SearchShell({ locale }: { locale: string }) {
  // In the renderer's pages the shell can appear without a page load (Back from a result the client rendered in place).
  useEffect(() => startSearchPage(), []);
  return (
    <section id="search-app" data-locale={locale}>
      <h1>Search</h1>
      <form id="search-form" role="search" aria-label="Search page" method="get" action={`/${locale}/search`}>
        <input id="search-input" type="search" name="q" maxLength={200} required aria-label="Search the site" autoComplete="off" />
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
  );
}
