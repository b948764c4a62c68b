import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Backlog } from '../origin/index.js';
import type { PageCacheStats } from '@sitestack/page-cache';
import { FastHistogram } from './fast-histogram.js';
import { rateLimitOf } from './operations-policy.js';

/** Seconds, from half a millisecond (a cache hit) to ten seconds (a render that waits for a slow origin). */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics every server keeps: request durations by route class and status, and the requests rate limits refused. */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly #requestDuration: FastHistogram<'route' | 'status'>;
  readonly #rateLimited: Counter<'limit'>;
  /**
   * The duration series by route class, then status: found by two lookups, with no label string made per request.
   * As bounded as the histogram's series, which it mirrors.
   */
  readonly #seriesOf = new Map<string, Map<number, { observe(value: number): void }>>();

  constructor(server: 'front' | 'origin' | 'proxy') {
    this.registry.setDefaultLabels({ server });
    collectDefaultMetrics({ register: this.registry, prefix: 'sitestack_' });
    this.#requestDuration = new FastHistogram({
      name: 'sitestack_http_request_duration_seconds',
      help: 'Time from the request to the end of its answer, by route class and status',
      labelNames: ['route', 'status'],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    this.#rateLimited = new Counter({
      name: 'sitestack_rate_limited_total',
      help: 'Requests a rate limit refused with 429, by limit (search on the front, comment on the origin)',
      labelNames: ['limit'],
      registers: [this.registry],
    });
  }

  /** Counts one answered request. */
  request(routeClass: string, status: number, seconds: number): void {
    let byStatus = this.#seriesOf.get(routeClass);
    if (byStatus === undefined) this.#seriesOf.set(routeClass, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) byStatus.set(status, (series = this.#requestDuration.series(routeClass, String(status))));
    series.observe(seconds);
    const limit = rateLimitOf(routeClass, status);
    if (limit !== undefined) this.#rateLimited.inc({ limit });
  }

  /** The registry in the Prometheus text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * A counter that mirrors a running total kept elsewhere (the page cache's stats): at each scrape it adds what the
 * total grew by since the last one, so the series stays a counter even though its source is read, not incremented.
 */
function mirroredCounter(registry: Registry, name: string, help: string, read: () => number): void {
  let seen = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const total = read();
      // A smaller total means a new cache (tests replace it): start over rather than count backwards.
      if (total < seen) this.reset();
      this.inc(total < seen ? total : total - seen);
      seen = total;
    },
  });
}

/** The front's metrics (and the proxy's): the common ones, the page cache's counters, renders and searches. */
export class FrontMetrics extends ServerMetrics {
  readonly #render: FastHistogram<'status'>;
  readonly #search: FastHistogram<'endpoint'>;

  constructor(stats: () => PageCacheStats, server: 'front' | 'proxy' = 'front') {
    super(server);
    const registry = this.registry;
    mirroredCounter(registry, 'sitestack_page_cache_hits_total', 'Requests answered from the page cache', () => stats().hits);
    mirroredCounter(registry, 'sitestack_page_cache_shared_hits_total', "Misses answered from the fleet's shared second tier without a render (among the hits too)", () => stats().sharedHits);
    mirroredCounter(registry, 'sitestack_page_cache_misses_total', 'Requests passed to the renderer because the page cache did not hold them', () => stats().misses);
    mirroredCounter(registry, 'sitestack_page_cache_evictions_total', 'Entries removed to respect the page cache bounds', () => stats().evictions);
    mirroredCounter(registry, 'sitestack_page_cache_purged_keys_total', 'Page cache keys removed (or, soft, marked stale) by purges', () => stats().purged);
    new Gauge({ name: 'sitestack_page_cache_entries', help: 'Entries the page cache holds', registers: [registry], collect() { this.set(stats().entries); } });
    new Gauge({ name: 'sitestack_page_cache_bytes', help: 'Bytes the page cache holds: bodies of every encoding plus headers', registers: [registry], collect() { this.set(stats().bytes); } });
    mirroredCounter(registry, 'sitestack_page_cache_stale_total', 'Requests answered from a soft-purged page cache entry while it is rendered again', () => stats().stale);
    mirroredCounter(registry, 'sitestack_page_cache_compressions_total', 'Bodies the page cache compressed: renders sent in br or gzip, and hits in a coding their entry did not hold yet', () => stats().compressions);
    this.#render = new FastHistogram({
      name: 'sitestack_render_duration_seconds',
      help: 'Page cache misses: time from handing the request to the renderer to the end of its answer, by status',
      labelNames: ['status'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    this.#search = new FastHistogram({
      name: 'sitestack_search_duration_seconds',
      help: 'Search API answers (search, autocomplete), from request to the end of the answer',
      labelNames: ['endpoint'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
  }

  render(status: number, seconds: number): void {
    this.#render.series(String(status)).observe(seconds);
  }

  override request(routeClass: string, status: number, seconds: number): void {
    super.request(routeClass, status, seconds);
    if (routeClass === 'search' || routeClass === 'autocomplete') this.#search.series(routeClass).observe(seconds);
  }
}

export interface OriginMetricsSources {
  /** Purge jobs not yet confirmed by every front; undefined when the origin delivers no purges (no secret). */
  purgeBacklog?: () => Backlog;
  /** Edge URLs still to purge. */
  edgeBacklog?: () => Backlog;
  searchBacklog: () => Backlog;
  /** @default Date.now */
  now?: () => number;
}

/** The origin's metrics: the common ones and its outboxes. The outboxes call the counting methods (OutboxMetrics). */
export class OriginMetrics extends ServerMetrics {
  readonly #deliveryFailures: Counter<'route'>;
  readonly #edgeFailures: Counter;
  readonly #searchFailures: Counter;

  constructor(sources: OriginMetricsSources) {
    super('origin');
    const registry = this.registry;
    const now = sources.now ?? Date.now;
    const outboxes: [string, (() => Backlog) | undefined][] = [
      ['purge', sources.purgeBacklog],
      ['edge', sources.edgeBacklog],
      ['search', sources.searchBacklog],
    ];
    const read = () => outboxes.flatMap(([outbox, backlog]) => (backlog === undefined ? [] : [{ outbox, ...backlog() }]));
    new Gauge({
      name: 'sitestack_outbox_backlog',
      help: 'Jobs waiting in each outbox: purge (fronts to purge), edge (URLs to refresh at the edge), search (posts to update)',
      labelNames: ['outbox'],
      registers: [registry],
      collect() {
        for (const { outbox, pending } of read()) this.set({ outbox }, pending);
      },
    });
    new Gauge({
      name: 'sitestack_outbox_oldest_age_seconds',
      help: 'Age of the oldest job waiting in each outbox (0 when none waits)',
      labelNames: ['outbox'],
      registers: [registry],
      collect() {
        const at = now();
        for (const { outbox, oldestAt } of read()) this.set({ outbox }, oldestAt === undefined ? 0 : Math.max(0, (at - oldestAt) / 1000));
      },
    });
    this.#deliveryFailures = new Counter({
      name: 'sitestack_purge_delivery_failures_total',
      help: 'Failed purge deliveries to a front, by purge route',
      labelNames: ['route'],
      registers: [registry],
    });
    this.#edgeFailures = new Counter({ name: 'sitestack_edge_purge_failures_total', help: 'Edge URLs whose purge failed (each failed attempt)', registers: [registry] });
    this.#searchFailures = new Counter({ name: 'sitestack_search_update_failures_total', help: 'Failed deliveries of the search outbox', registers: [registry] });
  }

  deliveryFailed(route: string): void {
    this.#deliveryFailures.inc({ route: routeLabel(route) });
  }

  edgePurgeFailed(urls: number): void {
    this.#edgeFailures.inc(urls);
  }

  searchUpdateFailed(): void {
    this.#searchFailures.inc();
  }
}

/** A purge route as a label: without credentials, should a route carry any. */
function routeLabel(route: string): string {
  try {
    const url = new URL(route);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return route;
  }
}
