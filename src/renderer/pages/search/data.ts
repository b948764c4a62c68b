import type { PageSource } from '../source.js';

export const searchSource = {
  // The search page's results come from the search API in the browser; it reads nothing from the origin.
  load: (route, origin) => Promise.resolve({ kind: 'search', title: `Search · ${origin.siteName}`, locale: route.locale }),
  routeOf: (page) => ({ kind: 'search', locale: page.locale }),
  shows: () => [],
} satisfies PageSource<'search'>;
