import { BOUND_LIMIT } from '../../sqlite-limit.js';
import type { OriginDatabase } from '../database.js';
import { INSIGHT_LIMITS, utcDay, type InsightEntry } from './policy.js';

export interface InsightsOptions {
  /** Days of counts kept, today included; older days are deleted as new counts arrive. @default 35 */
  retentionDays?: number;
  /** Distinct queries kept per day; counts of further new queries that day are not kept. @default 5000 */
  maxQueriesPerDay?: number;
  /** Searches with results a query needs (in the last 30 days) to be offered as a suggestion to readers. @default 3 */
  popularMinSearches?: number;
}

export const INSIGHTS_DEFAULTS = { retentionDays: 35, maxQueriesPerDay: 5_000, popularMinSearches: 3 } as const;

/** The periods the desk shows, in days. */
export const INSIGHT_PERIODS = [7, 30] as const;
export type InsightPeriod = (typeof INSIGHT_PERIODS)[number];

export interface QueryFigures {
  query: string;
  searches: number;
  no_results: number;
  clicks: number;
  /** The result opened most often after this query, when any was. */
  top_opened: string | null;
}

export interface InsightsReport {
  days: InsightPeriod;
  /** First day counted, `YYYY-MM-DD`. */
  since: string;
  totals: { searches: number; no_results: number; clicks: number; queries: number };
  top: QueryFigures[];
  /** Queries whose searches found nothing, most searched first: what to write next. */
  no_results: QueryFigures[];
}

const DAY_MS = 86_400_000;

/** The origin's daily counters of what readers search for, as the fronts flush them. */
export class InsightsStore {
  private readonly statements;
  private readonly options: Required<InsightsOptions>;

  constructor(private readonly db: OriginDatabase, options: InsightsOptions = {}) {
    this.options = { ...INSIGHTS_DEFAULTS, ...options };
    this.statements = {
      expire: db.prepare<[string]>(`DELETE FROM search_insights WHERE day < ?`),
      expireOpens: db.prepare<[string]>(`DELETE FROM search_insight_opens WHERE day < ?`),
      queriesOfDay: db.prepare<[string], number>(`SELECT count(*) FROM search_insights WHERE day = ?`).pluck(),
      known: db.prepare<[string, string], number>(`SELECT 1 FROM search_insights WHERE day = ? AND query = ?`).pluck(),
      add: db.prepare<[string, string, number, number, number, number]>(
        `INSERT INTO search_insights (day, query, searches, no_results, clicks, results) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (day, query) DO UPDATE SET searches = searches + excluded.searches, no_results = no_results + excluded.no_results,
           clicks = clicks + excluded.clicks, results = excluded.results`,
      ),
      opensOf: db.prepare<[string, string], number>(`SELECT count(*) FROM search_insight_opens WHERE day = ? AND query = ?`).pluck(),
      knownOpen: db.prepare<[string, string, string], number>(`SELECT 1 FROM search_insight_opens WHERE day = ? AND query = ? AND url = ?`).pluck(),
      addOpen: db.prepare<[string, string, string, number]>(
        `INSERT INTO search_insight_opens (day, query, url, opens) VALUES (?, ?, ?, ?)
         ON CONFLICT (day, query, url) DO UPDATE SET opens = opens + excluded.opens`,
      ),
      totals: db.prepare<[string], InsightsReport['totals']>(
        `SELECT coalesce(sum(searches), 0) AS searches, coalesce(sum(no_results), 0) AS no_results,
                coalesce(sum(clicks), 0) AS clicks, count(DISTINCT query) AS queries
           FROM search_insights WHERE day >= ?`,
      ),
      top: db.prepare<[string, number], QueryFigures>(
        `SELECT query, sum(searches) AS searches, sum(no_results) AS no_results, min(sum(clicks), sum(searches)) AS clicks, NULL AS top_opened
           FROM search_insights WHERE day >= ? GROUP BY query ORDER BY searches DESC, query ${BOUND_LIMIT}`,
      ),
      empty: db.prepare<[string, number], QueryFigures>(
        `SELECT query, sum(searches) AS searches, sum(no_results) AS no_results, min(sum(clicks), sum(searches)) AS clicks, NULL AS top_opened
           FROM search_insights WHERE day >= ? GROUP BY query HAVING sum(no_results) > 0 ORDER BY no_results DESC, query ${BOUND_LIMIT}`,
      ),
      topOpened: db.prepare<[string, string], string>(
        `SELECT url FROM search_insight_opens WHERE day >= ? AND query = ? GROUP BY url ORDER BY sum(opens) DESC, url LIMIT 1`,
      ).pluck(),
      popular: db.prepare<[string, number, number], string>(
        `SELECT query FROM search_insights WHERE day >= ? GROUP BY query HAVING sum(searches) - sum(no_results) >= ?
          ORDER BY sum(searches) - sum(no_results) DESC, query ${BOUND_LIMIT}`,
      ).pluck(),
    };
  }

  /**
   * Adds a front's counts, in one transaction: days past retention are deleted first, and a day's new queries beyond
   * its bound, or days outside retention (a front's clock far off), are not kept. Answers how many entries were kept.
   */
  ingest(entries: readonly InsightEntry[], nowMs: number): number {
    const oldest = utcDay(nowMs - (this.options.retentionDays - 1) * DAY_MS);
    const newest = utcDay(nowMs + DAY_MS);
    return this.db.transaction(() => {
      this.expire(nowMs);
      const queriesOfDay = new Map<string, number>();
      let kept = 0;
      for (const entry of entries) {
        if (entry.day < oldest || entry.day > newest) continue;
        if (this.statements.known.get(entry.day, entry.q) === undefined) {
          const count = queriesOfDay.get(entry.day) ?? this.statements.queriesOfDay.get(entry.day)!;
          if (count >= this.options.maxQueriesPerDay) continue;
          queriesOfDay.set(entry.day, count + 1);
        }
        this.statements.add.run(entry.day, entry.q, entry.searches, entry.no_results, entry.clicks, entry.results);
        kept++;
        let opens = this.statements.opensOf.get(entry.day, entry.q)!;
        for (const [url, times] of Object.entries(entry.opens)) {
          const known = this.statements.knownOpen.get(entry.day, entry.q, url) !== undefined;
          if (!known && opens >= INSIGHT_LIMITS.opensPerQuery) continue;
          if (!known) opens++;
          this.statements.addOpen.run(entry.day, entry.q, url, times);
        }
      }
      return kept;
    })();
  }

  /** Deletes the days past retention; run as counts arrive and as they are read, so a quiet site forgets too. */
  private expire(nowMs: number): void {
    const oldest = utcDay(nowMs - (this.options.retentionDays - 1) * DAY_MS);
    this.statements.expireOpens.run(oldest);
    this.statements.expire.run(oldest);
  }

  /** The top queries and those without results over the last `days` days (today included), `limit` of each. */
  report(days: InsightPeriod, nowMs: number, limit = 50): InsightsReport {
    this.expire(nowMs);
    const since = utcDay(nowMs - (days - 1) * DAY_MS);
    const withOpened = (rows: QueryFigures[]) => rows.map((row) => ({ ...row, top_opened: row.clicks > 0 ? (this.statements.topOpened.get(since, row.query) ?? null) : null }));
    return {
      days,
      since,
      totals: this.statements.totals.get(since)!,
      top: withOpened(this.statements.top.all(since, limit)),
      no_results: withOpened(this.statements.empty.all(since, limit)),
    };
  }

  /** Queries readers searched often in the last 30 days and found something for, most searched first. */
  popular(limit: number, nowMs: number): string[] {
    return this.statements.popular.all(utcDay(nowMs - 29 * DAY_MS), this.options.popularMinSearches, limit);
  }
}
