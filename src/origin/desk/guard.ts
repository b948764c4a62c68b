import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import { secretMatches } from '../../secret-compare.js';
import type { AccountStore, DeskSession } from './accounts.js';
import { CSRF_FIELD } from './pages.js';
import { cookieHeader, cookieToken, crossSiteProblem, SESSION_COOKIE, type SessionLifetime } from './session-policy.js';

/** The header a script of the desk may carry its token in instead of the form field. */
export const CSRF_HEADER = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyRequest {
    /** The editor's session, set by the desk guard's hooks; null on routes without them. */
    deskSession: DeskSession | null;
  }
}

/** The hooks a desk route puts in front of its handler. */
export interface DeskGuard {
  /** A page: without a live session a browser is sent to the login form (303), coming back here after. */
  page(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * A change (POST and the like): refused with 401 without a session, with 403 when it comes from another site or
   * without the session's token (form field `_csrf` or header `x-csrf-token`). Put it in `preHandler`, after the body is read.
   */
  change(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** A path of the desk to return to after login, or undefined: only desk paths, never `//host`, a scheme or `..`. */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 200 || !/^\/admin\/[A-Za-z0-9/_.~-]*$/.test(value)) return undefined;
  return value.includes('//') || /\/\.\.?(\/|$)/.test(value) ? undefined : value;
}

export function createDeskGuard(options: { accounts: AccountStore; lifetime: SessionLifetime; secure: boolean; now: () => number }): DeskGuard {
  const { accounts, lifetime } = options;
  const sessionOf = (request: FastifyRequest): DeskSession | undefined => {
    const id = cookieToken(request.headers.cookie, SESSION_COOKIE);
    return id === undefined ? undefined : accounts.session(id, lifetime, options.now());
  };
  /** An expired or unknown cookie is removed, so the browser stops sending it. */
  const dropCookie = (request: FastifyRequest, reply: FastifyReply): void => {
    if (cookieToken(request.headers.cookie, SESSION_COOKIE) !== undefined) {
      reply.header('set-cookie', cookieHeader(SESSION_COOKIE, '', { secure: options.secure, maxAgeSeconds: 0 }));
    }
  };
  return {
    async page(request, reply) {
      const session = sessionOf(request);
      if (session === undefined) {
        dropCookie(request, reply);
        const next = safeNext(request.url.split('?')[0]);
        const query = next === undefined || next === '/admin/' ? '' : `?next=${encodeURIComponent(next)}`;
        await reply.redirect(`/admin/login${query}`, 303);
        return;
      }
      request.deskSession = session;
    },
    async change(request, reply) {
      refuseCrossSite(request);
      const session = sessionOf(request);
      if (session === undefined) {
        dropCookie(request, reply);
        throw ERRORS.DESK_LOGIN_REQUIRED();
      }
      const given = formField(request.body, CSRF_FIELD) ?? header(request, CSRF_HEADER) ?? '';
      if (!secretMatches(given, session.csrfToken)) throw ERRORS.DESK_CSRF();
      request.deskSession = session;
    },
  };
}

/** Throws DESK_CROSS_SITE when a state-changing request comes from another site (crossSiteProblem). */
export function refuseCrossSite(request: FastifyRequest): void {
  const problem = crossSiteProblem({ origin: request.headers.origin, fetchSite: header(request, 'sec-fetch-site'), host: request.headers.host });
  if (problem !== undefined) throw ERRORS.DESK_CROSS_SITE(problem);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** One string field of a parsed form (or JSON object) body. */
export function formField(body: unknown, name: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}
