import type Database from 'better-sqlite3';
import type { OriginDatabase } from './database.js';
import { BOUND_LIMIT } from '../sqlite-limit.js';

/** `next_at` of an edge URL waiting for the front deliveries under way to end (see purgeCdn). */
const PARKED = Number.MAX_SAFE_INTEGER;

export interface DueJob {
  id: number;
  pathnames: string;
  keys: string;
  attempts: number;
}

export interface DueCdnUrl {
  url: string;
  attempts: number;
  queued_at: number;
}

/** The prepared statements of {@link purgeOutboxStatements}, one per question the outbox asks of its tables. */
export interface PurgeOutboxStatements {
  dueForRoute: Database.Statement<[string, number, number], DueJob>;
  delivered: Database.Statement<[number, string, number | null]>;
  report: Database.Statement<[string]>;
  completeReports: Database.Statement<[], { id: number; urls: string }>;
  forgetReport: Database.Statement<[number]>;
  failed: Database.Statement<[{ job: number; route: string; next: number; error: string }]>;
  confirmedByEveryFront: Database.Statement<[string, number], { id: number; pathnames: string; warm: string }>;
  queueCdn: Database.Statement<[string, number]>;
  finish: Database.Statement<[number]>;
  dueForCdn: Database.Statement<[number, number], DueCdnUrl>;
  cdnDone: Database.Statement<[string]>;
  park: Database.Statement<[{ url: string; now: number }]>;
  unpark: Database.Statement<[]>;
  retryRoute: Database.Statement<[string]>;
  cdnFailed: Database.Statement<[{ url: string; next: number; error: string }]>;
  nextFrontAttempt: Database.Statement<[string], { next: number | null }>;
  nextCdnAttempt: Database.Statement<[], { next: number | null }>;
  pendingJobs: Database.Statement<[], { count: number }>;
  pendingCdnUrls: Database.Statement<[], { count: number }>;
  jobsBacklog: Database.Statement<[], { count: number; oldest: string | null }>;
  cdnBacklog: Database.Statement<[], { count: number; oldest: number | null }>;
}

/**
 * The purge outbox's state in SQLite: jobs the content store wrote, each front's delivery of them, the URLs the fronts
 * reported purging, and the edge URLs still to refresh.
 */
export function purgeOutboxStatements(db: OriginDatabase): PurgeOutboxStatements {
  return {
    dueForRoute: db.prepare<[string, number, number], DueJob>(
      `SELECT j.id, j.pathnames, j.keys, coalesce(d.attempts, 0) AS attempts
         FROM purge_jobs j LEFT JOIN purge_deliveries d ON d.job_id = j.id AND d.route = ?
        WHERE coalesce(d.delivered, 0) = 0 AND coalesce(d.next_at, 0) <= ?
        ORDER BY j.id ${BOUND_LIMIT}`,
    ),
    delivered: db.prepare<[number, string, number | null]>(
      `INSERT INTO purge_deliveries (job_id, route, attempts, delivered, report_id) VALUES (?, ?, 1, 1, ?)
       ON CONFLICT (job_id, route) DO UPDATE SET attempts = attempts + 1, delivered = 1, last_error = NULL, report_id = excluded.report_id`,
    ),
    report: db.prepare<[string]>(`INSERT INTO purge_reports (urls) VALUES (?)`),
    // A report is complete once no delivery points to it: every job it covered was confirmed by every front.
    completeReports: db.prepare<[], { id: number; urls: string }>(
      `SELECT id, urls FROM purge_reports r WHERE NOT EXISTS (SELECT 1 FROM purge_deliveries d WHERE d.report_id = r.id)`,
    ),
    forgetReport: db.prepare<[number]>(`DELETE FROM purge_reports WHERE id = ?`),
    failed: db.prepare<[{ job: number; route: string; next: number; error: string }]>(
      `INSERT INTO purge_deliveries (job_id, route, attempts, next_at, last_error) VALUES (@job, @route, 1, @next, @error)
       ON CONFLICT (job_id, route) DO UPDATE SET attempts = attempts + 1, next_at = @next, last_error = @error`,
    ),
    confirmedByEveryFront: db.prepare<[string, number], { id: number; pathnames: string; warm: string }>(
      `SELECT id, pathnames, warm FROM purge_jobs WHERE
         (SELECT count(*) FROM purge_deliveries d WHERE d.job_id = purge_jobs.id AND d.delivered = 1
             AND d.route IN (SELECT value FROM json_each(?))) = ?`,
    ),
    // A URL queued again (a newer change) is a new purge: due at once, with a fresh count and clock.
    queueCdn: db.prepare<[string, number]>(
      `INSERT INTO cdn_purges (url, queued_at) VALUES (?, ?)
       ON CONFLICT (url) DO UPDATE SET queued_at = excluded.queued_at, attempts = 0, next_at = 0, last_error = NULL`,
    ),
    finish: db.prepare<[number]>(`DELETE FROM purge_jobs WHERE id = ?`),
    dueForCdn: db.prepare<[number, number], DueCdnUrl>(
      `SELECT url, attempts, queued_at FROM cdn_purges WHERE next_at <= ? ORDER BY next_at, url ${BOUND_LIMIT}`,
    ),
    cdnDone: db.prepare<[string]>(`DELETE FROM cdn_purges WHERE url = ?`),
    park: db.prepare<[{ url: string; now: number }]>(
      `UPDATE cdn_purges SET queued_at = @now, attempts = 0, next_at = ${PARKED}, last_error = NULL WHERE url = @url`,
    ),
    unpark: db.prepare<[]>(`UPDATE cdn_purges SET next_at = 0 WHERE next_at = ${PARKED}`),
    retryRoute: db.prepare<[string]>(`UPDATE purge_deliveries SET next_at = 0 WHERE route = ? AND delivered = 0`),
    cdnFailed: db.prepare<[{ url: string; next: number; error: string }]>(
      `UPDATE cdn_purges SET attempts = attempts + 1, next_at = @next, last_error = @error WHERE url = @url`,
    ),
    nextFrontAttempt: db.prepare<[string], { next: number | null }>(
      `SELECT min(coalesce(d.next_at, 0)) AS next
         FROM purge_jobs j CROSS JOIN json_each(?) r
         LEFT JOIN purge_deliveries d ON d.job_id = j.id AND d.route = r.value
        WHERE coalesce(d.delivered, 0) = 0`,
    ),
    nextCdnAttempt: db.prepare<[], { next: number | null }>(`SELECT min(next_at) AS next FROM cdn_purges`),
    pendingJobs: db.prepare<[], { count: number }>(`SELECT count(*) AS count FROM purge_jobs`),
    pendingCdnUrls: db.prepare<[], { count: number }>(`SELECT count(*) AS count FROM cdn_purges`),
    jobsBacklog: db.prepare<[], { count: number; oldest: string | null }>(`SELECT count(*) AS count, min(created_at) AS oldest FROM purge_jobs`),
    cdnBacklog: db.prepare<[], { count: number; oldest: number | null }>(`SELECT count(*) AS count, min(queued_at) AS oldest FROM cdn_purges`),
  };
}
