/** The desk's cookie: the session id, sent only to `/admin` and never to scripts or other sites. */
export const SESSION_COOKIE = 'sitestack_desk';
/** The login form's double-submit token, set with the form (no session exists yet to tie a token to). */
export const LOGIN_COOKIE = 'sitestack_desk_login';
export const DESK_PATH = '/admin';
/** Where the desk's script is served, under its content hash. */
export const DESK_STATIC_PREFIX = `${DESK_PATH}/static/`;

/** How long a session lives: ended after `idleMs` without a request, and `absoluteMs` after login whatever happens. */
export interface SessionLifetime {
  idleMs: number;
  absoluteMs: number;
}

/** A session's own times, in milliseconds since the epoch. */
export interface SessionTimes {
  createdAt: number;
  lastSeenAt: number;
}

/** Whether a session is over at `now`. */
export function sessionExpired(session: SessionTimes, now: number, lifetime: SessionLifetime): boolean {
  return now - session.lastSeenAt >= lifetime.idleMs || now - session.createdAt >= lifetime.absoluteMs;
}

/** Whether the desk's cookies get `Secure`: when the public URL is https (a browser drops them over http otherwise). */
export function secureCookies(publicUrl: string | undefined): boolean {
  return publicUrl?.toLowerCase().startsWith('https:') ?? false;
}

/**
 * A `Set-Cookie` value. `HttpOnly` keeps it from scripts, `SameSite=Strict` from requests another site starts, `Path`
 * from every page but the desk's; `maxAgeSeconds` 0 removes it.
 */
export function cookieHeader(name: string, value: string, options: { secure: boolean; maxAgeSeconds: number }): string {
  const parts = [`${name}=${value}`, `Path=${DESK_PATH}`, `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Strict'];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** A token as the desk makes them: base64url of 32 random bytes. Anything else in a cookie or form is ignored. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The value of one cookie of a `Cookie` header when it is a desk token, else undefined. */
export function cookieToken(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at >= 0 && part.slice(0, at).trim() === name) {
      const value = part.slice(at + 1).trim();
      if (TOKEN_PATTERN.test(value)) return value;
    }
  }
  return undefined;
}

/** What a browser says about where a state-changing request comes from. */
export interface RequestSource {
  /** The `Origin` header. */
  origin: string | undefined;
  /** The `Sec-Fetch-Site` header. */
  fetchSite: string | undefined;
  /** The `Host` header the request was sent to. */
  host: string | undefined;
}

/**
 * Why a state-changing request must be refused as coming from another site, or undefined when it may go on (its token
 * is checked besides). `Sec-Fetch-Site` is believed when sent; else `Origin` must name this host. The host alone is
 * compared, not the scheme, because a TLS-terminating proxy makes the origin see http where the browser saw https.
 * A request with neither header (curl, an old browser) is left to the token.
 */
export function crossSiteProblem(source: RequestSource): string | undefined {
  const site = source.fetchSite?.toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `the form was sent from another site (Sec-Fetch-Site: ${site.slice(0, 40)})`;
  if (source.origin === undefined) return undefined;
  let host: string;
  try {
    host = new URL(source.origin).host;
  } catch {
    return 'the form was sent from an unknown origin';
  }
  if (host === '' || host !== source.host?.toLowerCase()) return 'the form was sent from another origin';
  return undefined;
}
