/*
 * The page registry: one folder per page kind (`<kind>/route.ts` where it lives, `<kind>/view.tsx` how it shows,
 * `<kind>/data.ts` what it reads from the origin, `<kind>/cache.ts` how it is keyed and purged and whether the sitemap
 * lists it), and one table per file (addresses.ts, views.tsx, sources.ts, caching.ts). This surface is what readers
 * outside the renderer need: the origin's purge policy.
 */
export { purgeTargets, type PurgeTargets } from './purge.js';
export type { ContentChange } from './kinds.js';
