import type { FastifyBodyParser, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import { isAppError } from '../../errors.js';
import { formUtf8Problem } from '../../http/index.js';
import type { Logger } from '../../log.js';
import { logUrl } from '../../log-bounds.js';
import { secretMatches } from '../../secret-compare.js';
import type { OriginDatabase } from '../database.js';
import { AccountStore, newToken } from './accounts.js';
import { normaliseUserName, PASSWORD_LIMITS } from './credentials.js';
import { createDeskGuard, formField, refuseCrossSite, safeNext, type DeskGuard } from './guard.js';
import { CSRF_FIELD, deskErrorPage, deskHomePage, loginPage, logoutPage } from './pages.js';
import type { ScryptParams } from './password-hash.js';
import { cookieHeader, cookieToken, DESK_PATH, DESK_STATIC_PREFIX, LOGIN_COOKIE, secureCookies, SESSION_COOKIE, type SessionLifetime } from './session-policy.js';

export interface DeskOptions {
  db: OriginDatabase;
  logger: Logger;
  /** `PUBLIC_URL`: the desk's cookies are `Secure` when it is https. @default undefined (not Secure) */
  publicUrl?: string | undefined;
  /** @default { idleMs: 7200000 (2 h), absoluteMs: 86400000 (24 h) } */
  sessionLifetime?: SessionLifetime;
  /** Failed logins per client address (`request.ip`, see trustedProxies) in a window. @default { max: 30, windowMs: 3600000 } */
  loginRateLimit?: { max: number; windowMs: number };
  /** Failed logins per user name, whatever the address, in a window. @default { max: 10, windowMs: 3600000 } */
  loginNameRateLimit?: { max: number; windowMs: number };
  /** The cost of new password hashes. @default SCRYPT_DEFAULTS */
  scrypt?: ScryptParams;
  /** Later desk routes, registered in the desk's scope (form bodies, no-store, HTML errors) with the guard. */
  routes?: (scope: FastifyInstance, guard: DeskGuard) => void | Promise<void>;
  /** @default Date.now */
  now?: () => number;
}

export const DESK_DEFAULTS = {
  sessionLifetime: { idleMs: 2 * 3_600_000, absoluteMs: 24 * 3_600_000 },
  loginRateLimit: { max: 30, windowMs: 3_600_000 },
  loginNameRateLimit: { max: 10, windowMs: 3_600_000 },
} as const;

const DESK_STATIC_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Largest desk form body read. A login form at its limits (64 + 1,024 characters, each percent-encoded as 12 bytes) fits. */
const FORM_BODY_LIMIT = 16 * 1024;

/** The one answer to a failed login, whichever of name and password was wrong, so it tells no one which names exist. */
const LOGIN_FAILED = 'That username and password do not match. Check them and try again.';

/**
 * Headers of every `/admin` answer: nothing may keep a copy (the desk shows one editor's session), no other site may
 * frame it, and the pages run only the desk's own script (served from `/admin/static/`), fetch only from here and send
 * forms only here. The editor's preview is a sandboxed `srcdoc` frame, which inherits this policy: `frame-src 'self'`
 * lets it load, and its images come from the origin (`img-src 'self'`).
 */
const DESK_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
} as const;

const parseForm: FastifyBodyParser<Buffer> = (_request, body, done) => {
  const problem = formUtf8Problem(body);
  if (problem !== undefined) {
    done(ERRORS.INVALID_UTF8(problem));
    return;
  }
  // The first value of each field; a repeated field cannot smuggle a second one past the checks.
  const fields: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body.toString('utf8'))) if (!(key in fields)) fields[key] = value;
  done(null, fields);
};

/** A wait as a person reads it: seconds up to a minute and a half, then whole minutes. */
function waitText(seconds: number): string {
  return seconds <= 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}

function isDeskPath(url: string): boolean {
  return url === DESK_PATH || url.startsWith(`${DESK_PATH}/`) || url.startsWith(`${DESK_PATH}?`);
}

/**
 * The editor's desk at `/admin/` on the origin: login, logout and the shell page, and the guard later desk routes use
 * (options.routes). Call before the app listens, after `@fastify/rate-limit` is registered.
 */
export async function registerDesk(app: FastifyInstance, options: DeskOptions): Promise<void> {
  const now = options.now ?? Date.now;
  const lifetime = options.sessionLifetime ?? DESK_DEFAULTS.sessionLifetime;
  const secure = secureCookies(options.publicUrl);
  const accounts = new AccountStore(options.db, options.scrypt);
  const guard = createDeskGuard({ accounts, lifetime, secure, now });
  const perAddress = options.loginRateLimit ?? DESK_DEFAULTS.loginRateLimit;
  const perName = options.loginNameRateLimit ?? DESK_DEFAULTS.loginNameRateLimit;

  // On the app, not the scope: a desk path no route serves (a 404, a 414) is kept by no cache either.
  app.decorateRequest('deskSession', null);
  app.addHook('onSend', async (request, reply) => {
    if (!isDeskPath(request.url)) return;
    // The desk's script is named by its content hash, so a copy kept for a year is never stale; it holds nobody's data.
    const immutable = reply.statusCode === 200 && request.url.startsWith(DESK_STATIC_PREFIX);
    reply.headers(immutable ? { ...DESK_HEADERS, 'cache-control': DESK_STATIC_CACHE_CONTROL } : DESK_HEADERS);
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT }, parseForm);
    scope.setErrorHandler((error: FastifyError | Error, request, reply) => {
      const status = isAppError(error) ? error.status : 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 500) options.logger.error({ err: error, url: logUrl(request.url) }, 'desk request failed');
      const message = status >= 500 ? 'Something went wrong on the server. Try again in a moment.' : error.message;
      return reply.status(status).type('text/html; charset=utf-8').send(deskErrorPage(message));
    });

    const byAddress = scope.createRateLimit({ max: perAddress.max, timeWindow: perAddress.windowMs, keyGenerator: (request) => `desk-login-address:${request.ip}` });
    const byName = scope.createRateLimit({
      max: perName.max,
      timeWindow: perName.windowMs,
      keyGenerator: (request) => `desk-login-name:${normaliseUserName(formField(request.body, 'username') ?? '').slice(0, 80)}`,
    });
    /** Seconds until a login may be tried again, or 0 when both limits leave room. */
    const waitSeconds = async (request: FastifyRequest, count: boolean): Promise<number> => {
      let wait = 0;
      for (const limit of [byAddress, byName]) {
        const state = await limit(request, { increment: count });
        if (!state.isAllowed && (count ? state.isExceeded : state.remaining === 0)) wait = Math.max(wait, state.ttlInSeconds, 1);
      }
      return wait;
    };

    const html = (reply: FastifyReply, status: number, page: string) => reply.status(status).type('text/html; charset=utf-8').send(page);
    const loginForm = (request: FastifyRequest, reply: FastifyReply, status: number, props: Omit<Parameters<typeof loginPage>[0], 'csrfToken'>) => {
      // The browser's token is kept when it has one, so a login form open in another tab stays valid.
      const token = cookieToken(request.headers.cookie, LOGIN_COOKIE) ?? newToken();
      reply.header('set-cookie', cookieHeader(LOGIN_COOKIE, token, { secure, maxAgeSeconds: lifetime.absoluteMs / 1000 }));
      return html(reply, status, loginPage({ ...props, csrfToken: token }));
    };

    scope.get(DESK_PATH, async (_request, reply) => reply.redirect(`${DESK_PATH}/`, 308));

    scope.get(`${DESK_PATH}/logout`, { preHandler: guard.page }, async (request, reply) => {
      const session = request.deskSession;
      if (session === null) throw ERRORS.DESK_LOGIN_REQUIRED();
      return html(reply, 200, logoutPage({ userName: session.userName, csrfToken: session.csrfToken }));
    });

    scope.get(`${DESK_PATH}/login`, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const id = cookieToken(request.headers.cookie, SESSION_COOKIE);
      if (id !== undefined && accounts.session(id, lifetime, now()) !== undefined) return reply.redirect(safeNext(query.next) ?? `${DESK_PATH}/`, 303);
      const notice = query.out === 'all' ? 'You have logged out on every device.' : query.out === '1' ? 'You have logged out.' : undefined;
      return loginForm(request, reply, 200, { next: safeNext(query.next), notice });
    });

    scope.post(`${DESK_PATH}/login`, { bodyLimit: FORM_BODY_LIMIT }, async (request, reply) => {
      refuseCrossSite(request);
      // Login CSRF (logging a victim in as the attacker) is refused by a double-submit token: the form's field must
      // match the cookie set with the form, which another site can neither read nor set (SameSite=Strict, HttpOnly).
      const expected = cookieToken(request.headers.cookie, LOGIN_COOKIE);
      if (expected === undefined || !secretMatches(formField(request.body, CSRF_FIELD) ?? '', expected)) throw ERRORS.DESK_CSRF();
      const typed = formField(request.body, 'username') ?? '';
      const name = normaliseUserName(typed);
      const password = formField(request.body, 'password') ?? '';
      const next = safeNext(formField(request.body, 'next'));
      const shownName = [...typed].slice(0, 64).join('');
      const wait = await waitSeconds(request, false);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return loginForm(request, reply, 429, { error: `Too many failed logins. Try again in ${waitText(wait)}.`, userName: shownName, next });
      }
      const user = name.length > 64 || password.length > PASSWORD_LIMITS.maxLength * 2 ? undefined : await accounts.authenticate(name, password);
      if (user === undefined) {
        await waitSeconds(request, true);
        return loginForm(request, reply, 401, { error: LOGIN_FAILED, userName: shownName, next });
      }
      accounts.pruneSessions(lifetime, now());
      const session = accounts.openSession(user, now());
      reply.header('set-cookie', [
        cookieHeader(SESSION_COOKIE, session.id, { secure, maxAgeSeconds: lifetime.absoluteMs / 1000 }),
        cookieHeader(LOGIN_COOKIE, '', { secure, maxAgeSeconds: 0 }),
      ]);
      return reply.redirect(next ?? `${DESK_PATH}/`, 303);
    });

    scope.post(`${DESK_PATH}/logout`, { bodyLimit: FORM_BODY_LIMIT, preHandler: guard.change }, async (request, reply) => {
      const everywhere = (request.query as Record<string, unknown>).everywhere === '1';
      const id = cookieToken(request.headers.cookie, SESSION_COOKIE);
      if (everywhere && request.deskSession !== null) accounts.endUserSessions(request.deskSession.userId);
      else if (id !== undefined) accounts.endSession(id);
      reply.header('set-cookie', cookieHeader(SESSION_COOKIE, '', { secure, maxAgeSeconds: 0 }));
      return reply.redirect(`${DESK_PATH}/login?out=${everywhere ? 'all' : '1'}`, 303);
    });

    await options.routes?.(scope, guard);
    // The desk's first page is the posts list when the editor's routes are registered; alone, the desk shows the session.
    if (!scope.hasRoute({ method: 'GET', url: `${DESK_PATH}/` })) {
      scope.get(`${DESK_PATH}/`, { preHandler: guard.page }, async (request, reply) => {
        const session = request.deskSession;
        if (session === null) throw ERRORS.DESK_LOGIN_REQUIRED();
        return html(reply, 200, deskHomePage({ userName: session.userName, csrfToken: session.csrfToken }));
      });
    }
  });
}

