/*
 * The page registry: one folder per page kind (`<kind>/route.ts` where it lives, how it is keyed and purged, whether
 * the sitemap lists it; `<kind>/view.tsx` how it shows; `<kind>/data.ts` what it reads from the origin), and one table
 * per half (addresses.ts, views.tsx, sources.ts). This surface is what readers outside the renderer need.
 */
export { purgeTargets, type PurgeTargets } from './purge.js';
export type { ContentChange, PageKind, PageRoute } from './kinds.js';
