import type { FastifyInstance } from 'fastify';
import type { ReactNode } from 'react';
import { ERRORS } from '../../error-codes.js';
import type { DeskGuard } from '../desk/index.js';
import { deskDocument, DeskPage, PostButton } from '../desk/layout.js';
import type { ContentStore } from '../store.js';
import { parseOid } from '../validation.js';
import { hasChanges, LINE_DIFF_DEFAULTS, lineDiff, revisionText, type DiffRow } from './diff.js';
import { parseRevisionNumber, parseRevisionQuery } from './policy.js';
import type { Revision } from './revision-log.js';
import { restoreRevision } from './restore.js';

export interface RevisionDeskDeps {
  store: ContentStore;
  /** Wakes the outbox workers after a restore. */
  onChange: () => void;
}

/** Revisions on one page of the desk's list: each brings up to two diffs. */
const PAGE_SIZE = 10;

/** Time all of a page's diffs may take together, so one page never holds the origin's thread for long. */
const PAGE_DIFF_BUDGET_MS = 1_000;

// Lines wrap inside the list at any width (390 px too); added and removed lines are told by a sign and by words for
// screen readers, not by colour alone.
const REVISION_STYLE = `.revisions{list-style:none;padding:0}.revision{border-top:1px solid var(--line);padding:1rem 0}
.revision h2{margin:.2rem 0}.diff{list-style:none;padding:0;margin:.5rem 0;font-family:ui-monospace,monospace;font-size:.85em}
.diff li{white-space:pre-wrap;overflow-wrap:anywhere;padding:0 .3rem}.diff ins,.diff del{text-decoration:none;display:block}
.diff ins{background:var(--note)}.diff del{background:var(--code)}.diff-mark{display:inline-block;width:1.2em;font-weight:bold}
.diff-skip{color:var(--muted);font-style:italic}details{margin:.5rem 0}summary{cursor:pointer}`;

const MARKS = { added: ['+', 'Added: '], removed: ['−', 'Removed: '], same: [' ', ''] } as const;

function DiffList(props: { rows: DiffRow[] | undefined; label: string }): ReactNode {
  if (props.rows === undefined) return <p className="hint">The changes are too many to show here.</p>;
  if (!hasChanges(props.rows)) return <p className="hint">No changes.</p>;
  return (
    <ol className="diff" aria-label={props.label}>
      {props.rows.map((row, index) => {
        if (row.kind === 'skipped' || row.kind === 'cut') {
          const lines = row.count === 1 ? '1 line' : `${row.count} lines`;
          return (
            <li key={index} className="diff-skip">
              {row.kind === 'skipped' ? `… ${lines} unchanged` : `… and ${lines} more, not shown`}
            </li>
          );
        }
        const [mark, words] = MARKS[row.kind];
        const line = (
          <>
            {words === '' ? null : <span className="visually-hidden">{words}</span>}
            <span className="diff-mark" aria-hidden="true">
              {mark}
            </span>
            {row.text}
          </>
        );
        return <li key={index}>{row.kind === 'added' ? <ins>{line}</ins> : row.kind === 'removed' ? <del>{line}</del> : line}</li>;
      })}
    </ol>
  );
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

interface RevisionsPageProps {
  oid: string;
  title: string;
  current: string;
  revisions: Revision[];
  /** The revision before the page's last one, for its diff. */
  older: Revision | undefined;
  next: number | undefined;
  restored: number | undefined;
  csrfToken: string;
}

function revisionsPage(props: RevisionsPageProps): string {
  const heading = `Revisions of “${props.title}”`;
  const deadline = Date.now() + PAGE_DIFF_BUDGET_MS;
  // Past the page's budget a diff is not tried (undefined: not shown), rather than started with no time left.
  const diff = (before: string, after: string) => {
    const left = deadline - Date.now();
    return left > 0 ? lineDiff(before, after, { timeoutMs: Math.min(left, LINE_DIFF_DEFAULTS.timeoutMs) }) : undefined;
  };
  return deskDocument(
    heading,
    <DeskPage title={heading}>
      <style dangerouslySetInnerHTML={{ __html: REVISION_STYLE }} />
      <p>
        Every save of <a href={`/plog/${props.oid}`}>/plog/{props.oid}</a> is kept here (the newest 100). Restoring one saves it again as a new
        revision.
      </p>
      <p role="status" className="form-ok">
        {props.restored === undefined ? '' : `Restored: it is revision ${props.restored} now.`}
      </p>
      {props.revisions.length === 0 ? <p>No saved revisions yet: the first save of this post starts its history.</p> : null}
      <ol className="revisions">
        {props.revisions.map((revision, index) => {
          const text = revisionText(revision);
          const previous = props.revisions[index + 1] ?? props.older;
          const fromCurrent = diff(props.current, text);
          const isCurrent = fromCurrent !== undefined && !hasChanges(fromCurrent);
          return (
            <li key={revision.n} className="revision" aria-labelledby={`revision-${revision.n}`}>
              <h2 id={`revision-${revision.n}`}>
                Revision {revision.n}
                {isCurrent ? ' (current)' : ''}
              </h2>
              <p className="post-meta">
                Saved <time dateTime={revision.saved_at}>{when(revision.saved_at)}</time> by {revision.saved_by} · {revision.size.toLocaleString('en-US')} characters
                {revision.restored_from === null ? '' : ` · restored from revision ${revision.restored_from}`}
              </p>
              <details>
                <summary>{previous === undefined ? 'Its content (the oldest kept)' : `Changes from revision ${previous.n}`}</summary>
                <DiffList rows={diff(previous === undefined ? '' : revisionText(previous), text)} label={`Changes in revision ${revision.n}`} />
              </details>
              {isCurrent ? null : (
                <>
                  <details>
                    <summary>Differences from the current version</summary>
                    <DiffList rows={fromCurrent} label={`From the current version to revision ${revision.n}`} />
                  </details>
                  <PostButton action={`/admin/posts/${props.oid}/revisions/${revision.n}/restore`} csrfToken={props.csrfToken} label={`Restore revision ${revision.n}`} />
                </>
              )}
            </li>
          );
        })}
      </ol>
      {props.next === undefined ? null : (
        <p>
          <a href={`/admin/posts/${props.oid}/revisions?before=${props.next}`}>Older revisions</a>
        </p>
      )}
    </DeskPage>,
  );
}

/**
 * The desk's revision pages: `GET /admin/posts/<oid>/revisions` (a post's saves, newest first, each with its diff
 * from the one before and from the current version) and `POST /admin/posts/<oid>/revisions/<n>/restore`. Call from the
 * desk's `routes` callback.
 */
export function registerRevisionDesk(scope: FastifyInstance, guard: DeskGuard, deps: RevisionDeskDeps): void {
  const { store } = deps;

  scope.get<{ Params: { oid: string } }>('/admin/posts/:oid/revisions', { preHandler: guard.page }, async (request, reply) => {
    const session = request.deskSession;
    if (session === null) throw ERRORS.DESK_LOGIN_REQUIRED();
    const oid = parseOid(request.params.oid);
    const query = { ...(request.query as Record<string, unknown>) };
    const restoredText = query.restored;
    delete query.restored;
    const { before } = parseRevisionQuery(query);
    const page = store.getPost(oid);
    if (page === undefined) throw ERRORS.POST_NOT_FOUND(oid);
    const { items } = store.revisions.list(oid, { before, limit: PAGE_SIZE + 1 });
    const shown = items.slice(0, PAGE_SIZE).flatMap((item) => store.revisions.get(oid, item.n) ?? []);
    const olderSummary = items[PAGE_SIZE];
    const restored = typeof restoredText === 'string' && /^[1-9]\d{0,15}$/.test(restoredText) ? Number(restoredText) : undefined;
    const html = revisionsPage({
      oid,
      title: page.post.title,
      current: revisionText(page.post),
      revisions: shown,
      older: olderSummary === undefined ? undefined : store.revisions.get(oid, olderSummary.n),
      next: olderSummary === undefined ? undefined : shown[shown.length - 1]?.n,
      restored,
      csrfToken: session.csrfToken,
    });
    return reply.type('text/html; charset=utf-8').send(html);
  });

  scope.post<{ Params: { oid: string; n: string } }>('/admin/posts/:oid/revisions/:n/restore', { preHandler: guard.change }, async (request, reply) => {
    const session = request.deskSession;
    if (session === null) throw ERRORS.DESK_LOGIN_REQUIRED();
    const oid = parseOid(request.params.oid);
    const restored = restoreRevision(store, oid, parseRevisionNumber(request.params.n), session.userName);
    deps.onChange();
    return reply.redirect(`/admin/posts/${oid}/revisions?restored=${restored}`, 303);
  });
}
