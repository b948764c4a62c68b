import type { FastifyInstance } from 'fastify';
import type { ReactNode } from 'react';
import { ERRORS } from '../../error-codes.js';
import type { DeskGuard } from '../desk/index.js';
import { deskDocument, DeskPage } from '../desk/layout.js';
import { siteBase } from '../moderation/index.js';
import { parsePeriod } from './routes.js';
import { INSIGHT_PERIODS, type InsightsReport, type InsightsStore, type QueryFigures } from './store.js';

export const INSIGHTS_PATH = '/admin/insights';

// Wide tables scroll inside their own region (focusable, so a keyboard can scroll it) rather than the page at 390 px.
const STYLE = `.ins-table{overflow-x:auto;margin:1rem 0}.ins-table table{border-collapse:collapse;min-width:100%}
.ins-table th,.ins-table td{text-align:left;padding:.35rem .6rem;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
.ins-table td.num,.ins-table th.num{text-align:right;white-space:nowrap}.ins-switch{display:flex;gap:1rem;flex-wrap:wrap}`;

function percent(part: number, whole: number): string {
  return whole === 0 ? '–' : `${Math.round((100 * part) / whole)}%`;
}

function Figures(props: { id: string; caption: string; rows: QueryFigures[]; siteUrl: string; empty: string; zero?: boolean }): ReactNode {
  if (props.rows.length === 0) return <p>{props.empty}</p>;
  return (
    <div className="ins-table" role="region" aria-labelledby={props.id} tabIndex={0}>
      <table>
        <caption id={props.id}>{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Query</th>
            <th scope="col" className="num">
              {props.zero === true ? 'Searches without results' : 'Searches'}
            </th>
            {props.zero === true ? null : (
              <>
                <th scope="col" className="num">
                  Click-through
                </th>
                <th scope="col">Most opened</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.query}>
              <td>{row.query}</td>
              <td className="num">{props.zero === true ? row.no_results : row.searches}</td>
              {props.zero === true ? null : (
                <>
                  <td className="num">{percent(row.clicks, row.searches)}</td>
                  <td>{row.top_opened === null ? '–' : <a href={`${props.siteUrl}${row.top_opened}`}>{row.top_opened}</a>}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function insightsPage(report: InsightsReport, siteUrl: string): string {
  const { totals } = report;
  return deskDocument(
    'Search insights',
    <DeskPage title="Search insights">
      <style>{STYLE}</style>
      <nav aria-label="Period" className="ins-switch">
        {INSIGHT_PERIODS.map((days) => (
          <a key={days} href={`${INSIGHTS_PATH}?days=${days}`} aria-current={days === report.days ? 'page' : undefined}>
            Last {days} days
          </a>
        ))}
      </nav>
      <p>
        Since {report.since} (UTC): {totals.searches} searches for {totals.queries} different queries, {totals.no_results} without
        results; a result was opened after {percent(Math.min(totals.clicks, totals.searches), totals.searches)} of them. A search
        counts once per burst of typing (its last query); no reader is identified.
      </p>
      <h2>Queries with no results</h2>
      <p>What readers looked for and did not find: what to write next.</p>
      <Figures id="ins-empty" caption={`Queries without results, last ${report.days} days`} rows={report.no_results} siteUrl={siteUrl} empty="Every query found something." zero />
      <h2>Top queries</h2>
      <Figures id="ins-top" caption={`Most searched queries, last ${report.days} days`} rows={report.top} siteUrl={siteUrl} empty="No searches counted yet." />
    </DeskPage>,
  );
}

/** The desk's insights page at `/admin/insights` (`?days=7` or `30`). */
export function registerInsightsDesk(scope: FastifyInstance, guard: DeskGuard, deps: { insights: InsightsStore; publicUrl?: string | undefined; now?: () => number }): void {
  const siteUrl = siteBase(deps.publicUrl);
  const now = deps.now ?? Date.now;
  scope.get(INSIGHTS_PATH, { preHandler: guard.page }, async (request, reply) => {
    if (request.deskSession === null) throw ERRORS.DESK_LOGIN_REQUIRED();
    const report = deps.insights.report(parsePeriod(request.query), now());
    return reply.type('text/html; charset=utf-8').send(insightsPage(report, siteUrl));
  });
}
