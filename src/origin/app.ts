import rateLimit from '@fastify/rate-limit';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBodyParser, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import { RateLimitLog } from '../log-bounds.js';
import { DEFAULT_TRUSTED_PROXIES, installErrorMapper, jsonUtf8Problem, REQUEST_BOUNDS, trustedProxyCheck, urlTooLong } from '../http/index.js';
import { secretMatches } from '../secret-compare.js';
import type { OriginDatabase } from './database.js';
import { ContentStore } from './store.js';
import { encodeCursor, parsePendingQuery } from './pending-page.js';
import { parsePostPatch, parsePostRepresentation } from './post-representation.js';
import { registerDesk, registerEditorDesk, type DeskOptions } from './desk/index.js';
import { ImageLibrary, registerImageRoutes, registerImagesDesk, type ImageOptions } from './images/index.js';
import { postNotFound, registerRevisionApi, registerRevisionDesk, sendMoved } from './revisions/index.js';
import { ModerationStore, registerModerationApi, registerModerationDesk, type ModerationOptions } from './moderation/index.js';
import { InsightsStore, registerInsightsApi, registerInsightsDesk, type InsightsOptions } from './insights/index.js';
import { DEFAULT_LOCALE } from '../renderer/pages/kinds.js';
import { SITE_DEFAULTS, type SiteIdentity } from '../renderer/site.js';
import { BODY_LIMITS, parseCommentId, parseCommentInput, parseListQuery, parseOid } from './validation.js';

export interface OriginAppOptions {
  db: OriginDatabase;
  logger: Logger;
  /** Bearer token of the admin writes; unset: every admin write is refused with 503. */
  adminToken?: string | undefined;
  /** Comment submissions per client address (`request.ip`, see trustedProxies). @default { max: 5, windowMs: 60000 } */
  commentRateLimit?: { max: number; windowMs: number };
  /**
   * Addresses and CIDR subnets of proxies whose `X-Forwarded-For` is believed (`TRUSTED_PROXIES`); `loopback` stands
   * for 127.0.0.0/8 and ::1, an empty list trusts no proxy. A request from a trusted peer counts against the address
   * `X-Forwarded-For` names (read from the right, past trusted proxies); one from any other peer against the peer's own.
   * @default ['loopback']
   */
  trustedProxies?: readonly string[];
  /** Called after every committed change that enqueued a purge (wakes the outbox worker). */
  onChange?: () => void;
  /** @default () => new Date() */
  now?: () => Date;
  /**
   * Answers the operations endpoints (`/healthz`, `/readyz`, `/metrics`) on the raw request, outside the API's hooks
   * and rate limits (createOperationsHandler). @default none: those paths are 404s
   */
  operations?: { paths: readonly string[]; handle: (req: IncomingMessage, res: ServerResponse, path: string) => void };
  /** The editor's desk at `/admin/` (docs/desk.md). @default the desk with DESK_DEFAULTS */
  desk?: Omit<DeskOptions, 'db' | 'logger'>;
  /**
   * What the desk's preview shows the site as, as the fronts do: `SITE_NAME`…, the first of `SITE_LOCALES`, and
   * `PUBLIC_URL` for the page's absolute links. @default SITE_DEFAULTS, 'en-US' and desk.publicUrl (none: relative links)
   */
  site?: { identity?: SiteIdentity; locale?: string };
  /** The rule check of new comments and the address kept with a pending one (docs/desk.md#moderation). @default MODERATION_DEFAULTS */
  moderation?: Omit<ModerationOptions, 'now'>;
  /**
   * Search insights the fronts flush (docs/desk.md#search-insights): `secret` is `PURGE_SECRET`, which they send them
   * with (unset: refused with 503). @default INSIGHTS_DEFAULTS, no secret
   */
  searchInsights?: InsightsOptions & { secret?: string | undefined };
  /** Image uploads and their files (docs/desk.md#images). @default none: the image routes are 404s */
  images?: ImageOptions;
}

export const ORIGIN_APP_DEFAULTS = {
  commentRateLimit: { max: 5, windowMs: 60_000 },
  trustedProxies: DEFAULT_TRUSTED_PROXIES,
} as const;

/**
 * Whether a header is exactly `Bearer <token>`, compared in constant time (secretMatches). Stricter than the page
 * cache's reading of the header: the admin API accepts only the form its documentation shows.
 */
export function adminAuthorized(header: string | undefined, token: string): boolean {
  const match = header === undefined ? null : /^Bearer ([^\s]+)$/.exec(header);
  return secretMatches(match?.[1] ?? '', token) && match !== null;
}

/** The content origin's JSON API (DESIGN §5) as a fastify app, ready to `listen` or `inject`. */
export async function createOriginApp(options: OriginAppOptions): Promise<FastifyInstance> {
  const store = new ContentStore(options.db, options.now === undefined ? {} : { now: options.now });
  const rerendered = store.refreshRenderings();
  if (rerendered > 0) options.logger.info({ posts: rerendered }, 'posts rendered again by the current sanitiser');
  const onChange = options.onChange ?? (() => undefined);
  const clock = options.now ?? (() => new Date());
  const limit = options.commentRateLimit ?? ORIGIN_APP_DEFAULTS.commentRateLimit;
  const app = Fastify({
    logger: false,
    // Routes without a body of their own read no more than a comment's; PUT, PATCH and comments set theirs.
    bodyLimit: BODY_LIMITS.comment,
    routerOptions: { maxParamLength: 200 },
    // The same trust rule as the search's rate limit, so a reader behind the front or the edge is one reader here too.
    trustProxy: trustedProxyCheck(options.trustedProxies ?? ORIGIN_APP_DEFAULTS.trustedProxies),
    // Beyond it fastify's own client error handler answers 431, logging nothing (its logger is off).
    http: { maxHeaderSize: REQUEST_BOUNDS.maxHeaderBytes },
  });
  installErrorMapper(app, options.logger);
  // JSON bodies are decoded strictly: bad bytes are refused naming their field rather than stored as U+FFFD.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  const strictJson: FastifyBodyParser<Buffer> = (request, body, done) => {
    const problem = jsonUtf8Problem(body);
    if (problem === undefined) defaultJson(request, body.toString('utf8'), done);
    else done(ERRORS.INVALID_UTF8(problem));
  };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, strictJson);
  app.addHook('onRequest', async (request) => {
    if (urlTooLong(request.raw.url)) throw ERRORS.URI_TOO_LONG(REQUEST_BOUNDS.maxUrlBytes);
  });
  await app.register(rateLimit, { global: false });
  const now = options.now;
  const millis = now === undefined ? Date.now : () => now().getTime();
  const moderation = new ModerationStore(options.db, store, { ...options.moderation, now: millis });
  const insights = new InsightsStore(options.db, options.searchInsights);
  const images = options.images === undefined ? undefined : { library: new ImageLibrary(options.db, options.images), logger: options.logger };
  const deskRoutes = options.desk?.routes;
  const preview = { site: options.site?.identity ?? SITE_DEFAULTS, locale: options.site?.locale ?? DEFAULT_LOCALE, baseUrl: options.desk?.publicUrl?.replace(/\/+$/, '') ?? '' };
  await registerDesk(app, {
    db: options.db,
    logger: options.logger,
    now: millis,
    ...options.desk,
    routes: async (scope, guard) => {
      await deskRoutes?.(scope, guard);
      if (images !== undefined) await registerImagesDesk(scope, guard, images);
      registerRevisionDesk(scope, guard, { store, onChange });
      registerModerationDesk(scope, guard, { moderation, onChange, publicUrl: options.desk?.publicUrl });
      registerInsightsDesk(scope, guard, { insights, publicUrl: options.desk?.publicUrl, now: millis });
      await registerEditorDesk(scope, guard, { db: options.db, store, onChange, preview, ...(now === undefined ? {} : { now }) });
    },
  });
  const refusedComments = new RateLimitLog({ logger: options.logger, message: 'comment rate limit exceeded', windowMs: limit.windowMs });
  app.addHook('onClose', async () => refusedComments.flush());

  const requireAdmin = async (request: FastifyRequest) => {
    const token = options.adminToken;
    if (token === undefined) throw ERRORS.ADMIN_DISABLED();
    const header = request.headers.authorization;
    if (header === undefined) throw ERRORS.UNAUTHORIZED('admin writes', 'ORIGIN_ADMIN_TOKEN');
    if (!adminAuthorized(header, token)) throw ERRORS.FORBIDDEN('admin');
  };
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode === 401) reply.header('www-authenticate', 'Bearer');
  });

  if (images !== undefined) await registerImageRoutes(app, requireAdmin, images);

  const operations = options.operations;
  for (const path of operations?.paths ?? []) {
    app.all(path, (request, reply) => {
      reply.hijack();
      operations?.handle(request.raw, reply.raw, path);
    });
  }

  const notFound = (oid: string) => postNotFound(store, oid);

  // `?category=<name>`: that category's posts (no groups for an unknown one), for its page.
  app.get('/api/v1/plog/', async (request) => ({ groups: store.listGroups(parseListQuery(request.query).category) }));

  // The source and the state are the editor's: an admin gets any post with them, to edit and save back; readers (the
  // fronts, a content build) get a post they may see, with its HTML alone, so a page's origin answer is no larger than
  // before formats, and a draft is the same 404 as a post that does not exist. A wrong token reads as a reader here.
  app.get<{ Params: { oid: string } }>('/api/v1/plog/:oid', async (request, reply) => {
    const oid = parseOid(request.params.oid);
    const token = options.adminToken;
    if (token !== undefined && adminAuthorized(request.headers.authorization, token)) {
      const page = store.getPostForEditor(oid);
      if (page === undefined) throw notFound(oid);
      return page;
    }
    const page = store.getPost(oid);
    // An old slug leads to its post only once readers see it: a draft's new slug is told to no one.
    const movedTo = page === undefined ? store.addresses.movedTo(oid) : undefined;
    if (movedTo !== undefined && store.getPost(movedTo) !== undefined) return sendMoved(reply, movedTo);
    if (page === undefined) throw notFound(oid);
    const { body: _source, ...post } = page.post;
    return { ...page, post };
  });

  app.put<{ Params: { oid: string } }>('/api/v1/plog/:oid', { onRequest: requireAdmin, bodyLimit: BODY_LIMITS.post }, async (request, reply) => {
    const oid = parseOid(request.params.oid);
    const { created } = store.putPost(oid, (current) => parsePostRepresentation(request.body, { oid }, current, clock()));
    onChange();
    return reply.status(created ? 201 : 200).send(store.getPostForEditor(oid));
  });

  // A scope of its own, so the merge patch media type is taken by PATCH alone: a PUT sent as a patch is refused (415).
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/merge-patch+json', { parseAs: 'buffer' }, strictJson);
    // After the admin check (onRequest), before the body is read: fastify would otherwise take text/plain as a string.
    scope.addHook('preParsing', async (request) => {
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/merge-patch+json' && type !== 'application/json') {
        throw ERRORS.UNSUPPORTED_MEDIA_TYPE(JSON.stringify(type?.slice(0, 80) ?? 'no content-type'));
      }
    });
    scope.patch<{ Params: { oid: string } }>('/api/v1/plog/:oid', { onRequest: requireAdmin, bodyLimit: BODY_LIMITS.post }, async (request) => {
      const oid = parseOid(request.params.oid);
      if (!store.patchPost(oid, (current) => parsePostPatch(current, request.body, clock()))) {
        throw postNotFound(store, oid, true);
      }
      onChange();
      return store.getPostForEditor(oid);
    });
  });

  app.delete<{ Params: { oid: string } }>('/api/v1/plog/:oid', { onRequest: requireAdmin }, async (request, reply) => {
    const oid = parseOid(request.params.oid);
    if (!store.deletePost(oid)) throw notFound(oid);
    onChange();
    return reply.status(204).send();
  });

  registerRevisionApi(app, { store, requireAdmin, onChange });

  app.get('/api/v1/comments/pending', { onRequest: requireAdmin }, async (request) => {
    const { items, more } = store.pendingComments(parsePendingQuery(request.query));
    const last = items[items.length - 1];
    return { items, next: more && last !== undefined ? encodeCursor(last.id) : null };
  });

  registerModerationApi(app, { moderation, requireAdmin, onChange });
  registerInsightsApi(app, { insights, secret: options.searchInsights?.secret, authorized: adminAuthorized, requireAdmin, now: millis });

  app.post<{ Params: { id: string } }>('/api/v1/comments/:id/approve', { onRequest: requireAdmin }, async (request) => {
    const id = parseCommentId(request.params.id);
    if (!store.approveComment(id)) throw ERRORS.COMMENT_NOT_FOUND(id);
    onChange();
    return { id, approved: true };
  });

  app.delete<{ Params: { id: string } }>('/api/v1/comments/:id', { onRequest: requireAdmin }, async (request, reply) => {
    const id = parseCommentId(request.params.id);
    if (!store.deleteComment(id)) throw ERRORS.COMMENT_NOT_FOUND(id);
    onChange();
    return reply.status(204).send();
  });

  app.post<{ Params: { oid: string } }>(
    '/api/v1/plog/:oid/comments',
    {
      bodyLimit: BODY_LIMITS.comment,
      config: {
        rateLimit: {
          keyGenerator: (request) => request.ip,
          max: limit.max,
          timeWindow: limit.windowMs,
          errorResponseBuilder: (_request, context) =>
            ERRORS.RATE_LIMITED('comments from this address', context.after),
          onExceeded: (request, key) => refusedComments.count(key, request.url),
        },
      },
    },
    async (request, reply) => {
      const oid = parseOid(request.params.oid);
      // A comment the rules drop is answered as a kept one: its sender learns nothing to work around. A reader whose
      // page was loaded before a rename still reaches the post: an old slug leads to it.
      const receipt = moderation.receive(store.addresses.movedTo(oid) ?? oid, parseCommentInput(request.body), request.ip);
      if (!receipt.stored) throw notFound(oid);
      return reply.status(201).send({ id: receipt.id });
    },
  );

  return app;
}
