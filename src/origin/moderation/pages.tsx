import type { ReactNode } from 'react';
import { CSRF_FIELD, deskDocument, DeskPage, PostButton } from '../desk/layout.js';
import { ALL_FIELD, COMMENT_FIELD_PREFIX, SHOWN_FIELD } from './input.js';
import { describeRule, RULE_LIMITS, type Rule, type RuleInput } from './rules.js';
import type { QueuedComment } from './store.js';

export const QUEUE_PATH = '/admin/comments';
export const RULES_PATH = '/admin/comments/rules';

// The desk runs no script (its Content-Security-Policy): "select all" is a box the server reads, and rows stack at
// any width rather than scroll sideways.
const STYLE = `.mod-list{list-style:none;padding:0;margin:1rem 0}.mod-item{border-top:1px solid var(--line);padding:.75rem 0;display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem}
.mod-item p{margin:.25rem 0;overflow-wrap:anywhere;white-space:pre-wrap}.mod-meta{color:var(--muted);font-size:.9em}
.mod-flag{display:inline-block;border:1px solid var(--error);color:var(--error);border-radius:4px;padding:0 .35rem;font-size:.85em}
.mod-toolbar{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0}.mod-filter{display:flex;flex-wrap:wrap;gap:1rem}
.mod-rule{border-top:1px solid var(--line);padding:.6rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}.mod-rule form{margin:0}`;

function Status(props: { notice?: string | undefined; error?: string | undefined }): ReactNode {
  return (
    <>
      <p className="form-ok" role="status">
        {props.notice ?? ''}
      </p>
      {props.error === undefined ? null : (
        <p className="form-error" role="alert" id="moderation-error">
          {props.error}
        </p>
      )}
    </>
  );
}

/** A moderation page: the desk's frame, this folder's style, and the status line a screen reader announces. */
function moderationDocument(title: string, status: { notice?: string | undefined; error?: string | undefined }, body: ReactNode): string {
  return deskDocument(
    title,
    <DeskPage title={title}>
      <style>{STYLE}</style>
      <Status notice={status.notice} error={status.error} />
      {body}
    </DeskPage>,
  );
}

/** An ISO time as a reader of any locale reads it: date and minutes, UTC. */
function When(props: { iso: string }): ReactNode {
  return <time dateTime={props.iso}>{`${props.iso.slice(0, 10)} ${props.iso.slice(11, 16)} UTC`}</time>;
}

function QueueItem(props: { item: QueuedComment; siteUrl: string }): ReactNode {
  const { item } = props;
  const box = `${COMMENT_FIELD_PREFIX}${item.id}`;
  return (
    <li className="mod-item">
      <input type="checkbox" id={box} name={box} aria-describedby={`${box}-text`} />
      <div>
        <label htmlFor={box}>
          <strong>{item.name}</strong> on <span>{item.title}</span>
        </label>{' '}
        {item.flag === null ? null : <span className="mod-flag">Flagged: {item.flag}</span>}
        <p className="mod-meta">
          <When iso={item.add_date} /> · <a href={`${props.siteUrl}/plog/${item.oid}`}>{item.title}</a>
          {item.address === null ? null : <> · from {item.address}</>}
        </p>
        <p id={`${box}-text`}>{item.comment}</p>
      </div>
    </li>
  );
}

export interface QueuePageProps {
  csrfToken: string;
  items: QueuedComment[];
  counts: { pending: number; flagged: number };
  flagged: boolean;
  /** Where readers see the site (`PUBLIC_URL`, no trailing slash), for the posts' links; '' for links on this host. */
  siteUrl: string;
  /** The next page's link, when there is one. */
  next?: string | undefined;
  notice?: string | undefined;
  error?: string | undefined;
}

export function queuePage(props: QueuePageProps): string {
  const { items, counts } = props;
  const here = props.flagged ? `${QUEUE_PATH}?flagged=1` : QUEUE_PATH;
  return moderationDocument(
    'Comments',
    props,
    <>
      <p>
        {counts.pending} pending, {counts.flagged} flagged by a rule. <a href={RULES_PATH}>Moderation rules</a>
      </p>
      <nav aria-label="Which comments" className="mod-filter">
        <a href={QUEUE_PATH} aria-current={props.flagged ? undefined : 'page'}>All pending</a>
        <a href={`${QUEUE_PATH}?flagged=1`} aria-current={props.flagged ? 'page' : undefined}>Flagged only</a>
      </nav>
      {items.length === 0 ? (
        <p>No comments are waiting.</p>
      ) : (
        <form method="post" action={here} aria-describedby={props.error === undefined ? undefined : 'moderation-error'}>
          <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
          <input type="hidden" name={SHOWN_FIELD} value={items.map((item) => item.id).join(',')} />
          <h2>Pending comments</h2>
          <div className="mod-toolbar">
            <span>
              <input type="checkbox" id="select-all" name={ALL_FIELD} />{' '}
              <label htmlFor="select-all">{`Select all ${items.length} comment${items.length === 1 ? '' : 's'} on this page`}</label>
            </span>
          </div>
          <ul className="mod-list">
            {items.map((item) => (
              <QueueItem key={item.id} item={item} siteUrl={props.siteUrl} />
            ))}
          </ul>
          <div className="mod-toolbar">
            <button type="submit" name="action" value="approve">
              Approve
            </button>
            <button type="submit" name="action" value="delete" className="secondary">
              Delete
            </button>
          </div>
        </form>
      )}
      {props.next === undefined ? null : (
        <p>
          <a href={props.next} rel="next">
            Next page
          </a>
        </p>
      )}
    </>,
  );
}

function Select(props: { id: string; label: string; options: [string, string][]; value: string }): ReactNode {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <select id={props.id} name={props.id} defaultValue={props.value}>
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </>
  );
}

export interface RulesPageProps {
  csrfToken: string;
  rules: Rule[];
  notice?: string | undefined;
  error?: string | undefined;
  /** What was typed into a refused form, shown back. */
  draft?: Partial<Record<keyof RuleInput, string>> | undefined;
}

export function rulesPage(props: RulesPageProps): string {
  const draft = props.draft ?? {};
  const invalid = props.error === undefined ? undefined : 'moderation-error';
  return moderationDocument(
    'Moderation rules',
    props,
    <>
      <p>
        Each new comment is checked against these rules, ignoring case and compatibility forms (ＦＲＥＥ is free). A comment
        a <strong>hold</strong> rule matches waits in the queue flagged with the rule; one a <strong>drop</strong> rule
        matches is not kept at all, and its sender is not told. <a href={QUEUE_PATH}>Back to the comments</a>
      </p>
      <h2>Rules ({props.rules.length} of {RULE_LIMITS.count})</h2>
      {props.rules.length === 0 ? <p>No rules yet: every comment waits in the queue unflagged.</p> : null}
      <ul className="mod-list">
        {props.rules.map((rule) => (
          <li key={rule.id} className="mod-rule">
            <span>
              <strong>{rule.action === 'drop' ? 'Drop' : 'Hold'}</strong> {describeRule(rule)}
              {rule.note === '' ? null : <span className="mod-meta"> — {rule.note}</span>}
            </span>
            <PostButton action={`${RULES_PATH}/${rule.id}/delete`} csrfToken={props.csrfToken} label={`Remove rule ${rule.id}`} secondary />
          </li>
        ))}
      </ul>
      <h2>Add a rule</h2>
      <form className="desk-form" method="post" action={RULES_PATH}>
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        <Select id="kind" label="Matches" value={draft.kind ?? 'word'} options={[['word', 'A word or phrase'], ['link', 'A link to a domain (* for any link)'], ['address', 'An address (IP or CIDR)']]} />
        <label htmlFor="pattern">Pattern</label>
        <input type="text" id="pattern" name="pattern" required maxLength={300} defaultValue={draft.pattern ?? ''} aria-invalid={invalid === undefined ? undefined : true} aria-describedby={invalid} />
        <Select id="action" label="Then" value={draft.action ?? 'hold'} options={[['hold', 'Hold for review (flagged)'], ['drop', 'Drop silently']]} />
        <label htmlFor="note">Note (optional)</label>
        <input type="text" id="note" name="note" maxLength={RULE_LIMITS.noteLength} defaultValue={draft.note ?? ''} />
        <button type="submit">Add rule</button>
      </form>
    </>,
  );
}
