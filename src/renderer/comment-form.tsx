import { useState, type FormEvent } from 'react';
import type { CommentValues } from './types.js';

/** The honeypot: a field readers never see or reach, which form-filling bots fill in. */
export const HONEYPOT_FIELD = 'website';

/** The path the comment form posts to, on the front (comment-route.ts). */
function commentAction(oid: string): string {
  return `/plog/${oid}/comments`;
}

export const COMMENT_PENDING_MESSAGE = 'Thank you. Your comment is awaiting moderation and will appear once it is approved.';

type Outcome = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'refused'; messages: string[] };

/**
 * The comment form of a post. Without JavaScript it posts to the front, which redirects to a thanks page or answers
 * the form again with the origin's messages; with JavaScript the same request is sent by fetch, asking for JSON, and
 * the answer shows beside the form. `refused` and `values` carry a refused no-JS post back into the form.
 */
export function CommentForm({ oid, refused = [], values }: { oid: string; refused?: string[]; values?: CommentValues }) {
  const [outcome, setOutcome] = useState<Outcome>(refused.length > 0 ? { kind: 'refused', messages: refused } : { kind: 'idle' });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setOutcome({ kind: 'sending' });
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') body.append(name, value);
    fetch(form.action, { method: 'POST', body, headers: { accept: 'application/json' } })
      .then(async (response) => {
        const answer = (await response.json().catch(() => ({}))) as { error?: unknown };
        if (response.ok) {
          form.reset();
          setOutcome({ kind: 'sent' });
        } else {
          const message = typeof answer.error === 'string' ? answer.error : `The comment could not be sent (error ${response.status}).`;
          setOutcome({ kind: 'refused', messages: [message] });
        }
      })
      .catch(() => setOutcome({ kind: 'refused', messages: ['The comment could not be sent: the server could not be reached. Please try again.'] }));
  };

  return (
    <form className="comment-form" method="post" action={commentAction(oid)} onSubmit={onSubmit} aria-labelledby="comment-form-title">
      <h2 id="comment-form-title">Leave a comment</h2>
      <p className="hint">Comments appear after moderation. Your name is shown with the comment.</p>
      <label htmlFor="comment-name">Name</label>
      <input id="comment-name" type="text" name="name" required maxLength={80} autoComplete="name" defaultValue={values?.name} />
      <label htmlFor="comment-text">Comment</label>
      <textarea id="comment-text" name="comment" required maxLength={5000} rows={5} defaultValue={values?.comment} />
      <div className="hp" aria-hidden="true">
        <label htmlFor="comment-website">Leave this field empty</label>
        <input id="comment-website" type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
      </div>
      <button type="submit" disabled={outcome.kind === 'sending'}>
        Post comment
      </button>
      <div id="comment-status" role="status" className={outcome.kind === 'refused' ? 'form-error' : 'form-ok'}>
        {outcome.kind === 'sent' ? <p>{COMMENT_PENDING_MESSAGE}</p> : null}
        {outcome.kind === 'refused' ? outcome.messages.map((message) => <p key={message}>{message}</p>) : null}
      </div>
    </form>
  );
}
