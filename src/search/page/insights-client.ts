/**
 * The search page's part in search insights (browser code). A burst is a reader's run of searches for one intent:
 * searches less than BURST_GAP_MS apart, or for the same query (a new page, a new order). Only its last query is
 * reported, once, when the burst ends: a result opened (with that result), the page hidden or left, or a search after
 * the gap. The burst lives in this page's memory only; a report carries no id, and no cookie or storage is used.
 */
const BURST_GAP_MS = 6_000;
const REPORT_PATH = '/api/v1/search/insights';

interface Burst {
  q: string;
  results: number;
  at: number;
  /** Reported already (without a click): a later click is reported as a repeat, counting only the click. */
  sent: boolean;
  opened: boolean;
}

let burst: Burst | undefined;

function sameQuery(a: string, b: string): boolean {
  return a.normalize('NFKC').toLowerCase().trim() === b.normalize('NFKC').toLowerCase().trim();
}

/** A report: sendBeacon survives the page being left (its text body is sent as text/plain, no preflight). */
function send(report: { q: string; results: number; opened?: string; repeat?: boolean }): void {
  const body = JSON.stringify(report);
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(REPORT_PATH, body)) return;
  void fetch(REPORT_PATH, { method: 'POST', body, keepalive: true }).catch(() => undefined);
}

/** Ends the current burst, reporting it when it was not yet. */
export function endBurst(): void {
  if (burst === undefined || burst.sent) return;
  burst.sent = true;
  send({ q: burst.q, results: burst.results });
}

/** A search answered with `results` results. */
export function searched(q: string, results: number): void {
  const now = Date.now();
  if (burst !== undefined && !burst.sent && (now - burst.at < BURST_GAP_MS || sameQuery(burst.q, q))) {
    Object.assign(burst, { q, results, at: now });
    return;
  }
  endBurst();
  burst = { q, results, at: now, sent: false, opened: false };
}

/** A result of the current burst opened: its path on this site is reported with the burst's last query. */
export function openedResult(href: string): void {
  if (burst === undefined || burst.opened) return;
  const url = new URL(href, location.href);
  burst.opened = true;
  send({ q: burst.q, results: burst.results, opened: `${url.pathname}${url.search}`, repeat: burst.sent });
  burst.sent = true;
}
