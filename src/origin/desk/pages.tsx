import type { ReactNode } from 'react';
import { CSRF_FIELD, deskDocument as document, DeskPage as Page, PostButton } from './layout.js';

export { CSRF_FIELD } from './layout.js';

/** A labelled login input; on a failed login it points to the alert that says why (`login-error`). */
function Field(props: { id: string; label: string; type: string; autoComplete: string; maxLength: number; defaultValue?: string; focus: boolean; error: boolean }): ReactNode {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.id}
        type={props.type}
        autoComplete={props.autoComplete}
        autoCapitalize={props.type === 'text' ? 'none' : undefined}
        spellCheck={props.type === 'text' ? false : undefined}
        required
        maxLength={props.maxLength}
        defaultValue={props.defaultValue}
        autoFocus={props.focus}
        aria-invalid={props.error || undefined}
        aria-describedby={props.error ? 'login-error' : undefined}
      />
    </>
  );
}

export interface LoginPageProps {
  /** The login form's double-submit token. */
  csrfToken: string;
  /** Said in an alert the screen reader announces; the name typed is kept, the password never. */
  error?: string | undefined;
  userName?: string | undefined;
  /** Where to go after login: a desk path. */
  next?: string | undefined;
  /** A quiet line: "You have logged out." */
  notice?: string | undefined;
}

export function loginPage(props: LoginPageProps): string {
  const invalid = props.error !== undefined;
  return document(
    'Log in',
    <Page title="Log in" nav={false}>
      {props.notice === undefined ? null : (
        <p className="form-ok" role="status">
          {props.notice}
        </p>
      )}
      {invalid ? (
        <p className="form-error" role="alert" id="login-error">
          {props.error}
        </p>
      ) : null}
      <form className="desk-form" method="post" action="/admin/login">
        <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
        {props.next === undefined ? null : <input type="hidden" name="next" value={props.next} />}
        <Field id="username" label="Username" type="text" autoComplete="username" maxLength={64} defaultValue={props.userName ?? ''} focus={!invalid} error={invalid} />
        <Field id="password" label="Password" type="password" autoComplete="current-password" maxLength={1024} focus={invalid} error={invalid} />
        <button type="submit">Log in</button>
      </form>
    </Page>,
  );
}

/**
 * Who is logged in and the way out on every device, on the desk's first page and the logout page; Log out itself is
 * the nav's button, on pages that pass DeskPage the token.
 */
export function SessionPanel(props: { userName: string; csrfToken: string }): ReactNode {
  return (
    <>
      <p>
        Logged in as <strong>{props.userName}</strong>.
      </p>
      <div className="desk-actions">
        <PostButton action="/admin/logout?everywhere=1" csrfToken={props.csrfToken} label="Log out everywhere" secondary />
      </div>
    </>
  );
}

/** The desk's shell when no posts page is registered (registerDesk alone): who is logged in and the ways out. */
export function deskHomePage(props: { userName: string; csrfToken: string }): string {
  return document(
    'Desk',
    <Page title="Desk" section="posts" csrfToken={props.csrfToken}>
      <SessionPanel {...props} />
    </Page>,
  );
}

/** What the nav's Log out link opens on a page without the session's token: the two ways out, as buttons. */
export function logoutPage(props: { userName: string; csrfToken: string }): string {
  return document(
    'Log out',
    <Page title="Log out" csrfToken={props.csrfToken}>
      <SessionPanel {...props} />
    </Page>,
  );
}

/** A refused desk request a browser sent (a form from elsewhere, an old token), with the way back. */
export function deskErrorPage(message: string): string {
  return document(
    'Not sent',
    <Page title="Not sent">
      <p className="form-error" role="alert">
        {message}
      </p>
      <p>
        <a href="/admin/">Back to the desk</a>
      </p>
    </Page>,
  );
}
