import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { STYLE } from '../../renderer/style.js';

/** The hidden field every state-changing desk form carries its token in. */
export const CSRF_FIELD = '_csrf';

const DESK_STYLE = `.desk-form{display:grid;gap:.5rem;max-width:24rem;margin:1.5rem 0}.desk-form button{justify-self:start;margin-top:.5rem}
input[type=password]{width:100%;background:var(--bg);border:1px solid var(--muted);padding:.45rem .6rem}
.desk-actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1.5rem 0}.desk-actions form{margin:0}
button.secondary{background:var(--bg);color:var(--link);border-color:var(--muted)}`;

/** Every desk page's frame: the skip link, the desk's header and the page's heading. */
export function DeskPage(props: { title: string; children: ReactNode }): ReactNode {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <span className="site-name">Editor&apos;s desk</span>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </>
  );
}

/** A whole desk page: the site's own style and the desk's additions around `body`. */
export function deskDocument(title: string, body: ReactNode): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${renderToStaticMarkup(<>{title}</>)} · Editor&#x27;s desk</title>` +
    `<style>${STYLE}${DESK_STYLE}</style></head><body>${renderToStaticMarkup(body)}</body></html>`
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

