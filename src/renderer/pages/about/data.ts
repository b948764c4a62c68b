import type { PageSource } from '../source.js';

export const aboutSource = {
  // Everything it shows is the site's own identity, which the view reads from the settings every page has.
  load: (_route, origin) => Promise.resolve({ kind: 'about', title: `About · ${origin.siteName}` }),
  routeOf: () => ({ kind: 'about' }),
  shows: () => [],
} satisfies PageSource<'about'>;
