import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import type { AppError } from '../../errors.js';
import type { ContentStore } from '../store.js';
import { parseOid } from '../validation.js';
import { parseRenameBody, parseRevisionNumber, parseRevisionQuery } from './policy.js';
import { API_SAVE } from './revision-log.js';
import { restoreRevision } from './restore.js';

export interface RevisionApiOptions {
  store: ContentStore;
  /** The admin API's bearer-token check (app.ts), run on every route here: revisions hold drafts' sources. */
  requireAdmin: (request: FastifyRequest) => Promise<void>;
  /** Wakes the outbox workers after a committed change. */
  onChange: () => void;
}

/** A rename's body is one slug: a small bound, well above `{"to":"<100 characters, each escaped>"}`. */
const RENAME_BODY_LIMIT = 2_048;

const postPath = (oid: string) => `/api/v1/plog/${oid}`;

/**
 * The origin's answer for an old slug of a renamed post: 301 to the post's API address, with the new slug in the body
 * too (`moved_to`), so a client that follows redirects reads the post and one that does not learns where it went. The
 * renderer turns it into the page's own 301 (src/renderer/pages/post/data.ts).
 */
export function sendMoved(reply: FastifyReply, to: string): FastifyReply {
  return reply.status(301).header('location', postPath(to)).send({ moved_to: to });
}

/** The 404 of a request naming no live post; for an old slug it names the post's address now. */
export function postNotFound(store: ContentStore, oid: string, toPatch = false): AppError {
  const moved = store.addresses.movedTo(oid);
  return moved === undefined ? ERRORS.POST_NOT_FOUND(oid, toPatch) : ERRORS.POST_RENAMED(oid, moved);
}

/**
 * `POST /api/v1/plog/<oid>/rename` and the revision routes (docs/origin.md, "Addresses and revisions"), behind the admin
 * token. Register on the origin app after its JSON parser.
 */
export function registerRevisionApi(app: FastifyInstance, options: RevisionApiOptions): void {
  const { store, requireAdmin, onChange } = options;

  app.post<{ Params: { oid: string } }>('/api/v1/plog/:oid/rename', { onRequest: requireAdmin, bodyLimit: RENAME_BODY_LIMIT }, async (request, reply) => {
    const from = parseOid(request.params.oid);
    const to = parseRenameBody(request.body);
    const outcome = store.renamePost(from, to);
    if (outcome.status === 'not-found') throw postNotFound(store, from);
    if (outcome.status === 'taken') throw ERRORS.SLUG_TAKEN(to);
    if (from !== to) onChange();
    return reply.header('content-location', postPath(to)).send(store.getPost(to));
  });

  app.get<{ Params: { oid: string } }>('/api/v1/plog/:oid/revisions', { onRequest: requireAdmin }, async (request) => {
    const oid = parseOid(request.params.oid);
    const page = parseRevisionQuery(request.query);
    if (store.getPost(oid) === undefined) throw postNotFound(store, oid);
    const { items, more } = store.revisions.list(oid, page);
    const last = items[items.length - 1];
    return { items, next: more && last !== undefined ? String(last.n) : null };
  });

  app.get<{ Params: { oid: string; n: string } }>('/api/v1/plog/:oid/revisions/:n', { onRequest: requireAdmin }, async (request) => {
    const oid = parseOid(request.params.oid);
    const n = parseRevisionNumber(request.params.n);
    const revision = store.revisions.get(oid, n);
    if (revision === undefined) throw store.getPost(oid) === undefined ? postNotFound(store, oid) : ERRORS.REVISION_NOT_FOUND(oid, n);
    return revision;
  });

  app.post<{ Params: { oid: string; n: string } }>('/api/v1/plog/:oid/revisions/:n/restore', { onRequest: requireAdmin }, async (request) => {
    const oid = parseOid(request.params.oid);
    const n = parseRevisionNumber(request.params.n);
    const restored = restoreRevision(store, oid, n, API_SAVE.by);
    onChange();
    return { ...store.getPost(oid), revision: restored };
  });
}
