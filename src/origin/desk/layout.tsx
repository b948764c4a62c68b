import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { STYLE } from '../../renderer/style.js';

/** The hidden field every state-changing desk form carries its token in. */
export const CSRF_FIELD = '_csrf';

const DESK_STYLE = `.desk-form{display:grid;gap:.5rem;max-width:24rem;margin:1.5rem 0}.desk-form button{justify-self:start;margin-top:.5rem}
input[type=password],input[type=datetime-local]{width:100%;background:var(--bg);border:1px solid var(--muted);padding:.45rem .6rem}
.desk-actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.5rem 0}.desk-actions form{margin:0}
button.secondary{background:var(--bg);color:var(--link);border-color:var(--muted)}
.desk-nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;align-items:center}.desk-nav form{margin:0}.desk-nav button{padding:.2rem .7rem}
.desk-nav [aria-current=page]{font-weight:700;text-decoration:none}`;

/** The desk's sections, each a link of the nav in the header. */
export const DESK_SECTIONS = [
  { id: 'posts', label: 'Posts', href: '/admin/' },
  { id: 'comments', label: 'Comments', href: '/admin/comments' },
  { id: 'insights', label: 'Insights', href: '/admin/insights' },
] as const;
export type DeskSection = (typeof DESK_SECTIONS)[number]['id'];

/**
 * The nav in the desk's header. Log out is a button when the page has the session's token, and otherwise a link to the
 * page that asks (GET `/admin/logout`), since a logout is a change a link must not make.
 */
function DeskNav(props: { current: DeskSection | undefined; csrfToken: string | undefined }): ReactNode {
  return (
    <nav aria-label="Desk" className="desk-nav">
      {DESK_SECTIONS.map((section) => (
        <a key={section.id} href={section.href} aria-current={section.id === props.current ? 'page' : undefined}>
          {section.label}
        </a>
      ))}
      {props.csrfToken === undefined ? <a href="/admin/logout">Log out</a> : <PostButton action="/admin/logout" csrfToken={props.csrfToken} label="Log out" secondary />}
    </nav>
  );
}

/**
 * Every desk page's frame: the skip link, the desk's header with its nav and the page's heading. `nav: false` leaves
 * the nav out (the login form); `section` marks the current one; `csrfToken` makes Log out a button.
 */
export function DeskPage(props: { title: string; children: ReactNode; nav?: boolean; section?: DeskSection; csrfToken?: string }): ReactNode {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <span className="site-name">Editor&apos;s desk</span>
        {props.nav === false ? null : <DeskNav current={props.section} csrfToken={props.csrfToken} />}
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </>
  );
}

/** Extra pieces of a desk page's head: its own style and the desk's script (`/admin/static/…`). */
export interface DeskHead {
  style?: string;
  script?: string;
}

/** A whole desk page: the site's own style and the desk's additions around `body`. */
export function deskDocument(title: string, body: ReactNode, head: DeskHead = {}): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${renderToStaticMarkup(<>{title}</>)} · Editor&#x27;s desk</title>` +
    `<style>${STYLE}${DESK_STYLE}${head.style ?? ''}</style>` +
    (head.script === undefined ? '' : renderToStaticMarkup(<script type="module" src={head.script} />)) +
    `</head><body>${renderToStaticMarkup(body)}</body></html>`
  );
}

/** A one-button form that posts to `action` with the session's token. */
export function PostButton(props: { action: string; csrfToken: string; label: string; secondary?: boolean }): ReactNode {
  return (
    <form method="post" action={props.action}>
      <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
      <button type="submit" className={props.secondary === true ? 'secondary' : undefined}>
        {props.label}
      </button>
    </form>
  );
}
