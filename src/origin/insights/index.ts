/** Search insights on the origin: the daily counters the fronts flush, their API and the desk's page. */
export { INSIGHT_LIMITS, normaliseQuery, readableQuery, utcDay, validOpenedPath, type InsightEntry } from './policy.js';
export { INSIGHTS_DEFAULTS, INSIGHT_PERIODS, InsightsStore, type InsightPeriod, type InsightsOptions, type InsightsReport, type QueryFigures } from './store.js';
export { POPULAR_CACHE_CONTROL, POPULAR_MAX, registerInsightsApi, type InsightsApiDeps } from './routes.js';
export { registerInsightsDesk } from './desk.js';
