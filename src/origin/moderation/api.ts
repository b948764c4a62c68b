import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import { encodeCursor } from '../pending-page.js';
import { parseBatchBody, parseQueueQuery, parseRuleId } from './input.js';
import { parseRuleInput } from './rules.js';
import type { ModerationStore } from './store.js';

export interface ModerationApiDeps {
  moderation: ModerationStore;
  /** The admin API's bearer check (an onRequest hook). */
  requireAdmin: (request: FastifyRequest) => Promise<void>;
  /** Called after a change that enqueued a purge. */
  onChange: () => void;
}

/**
 * The moderation API for automation, behind the admin bearer token: `POST /api/v1/comments/batch`, the queue at
 * `GET /api/v1/moderation/queue` and the rule list at `/api/v1/moderation/rules` (docs/origin.md).
 */
export function registerModerationApi(app: FastifyInstance, deps: ModerationApiDeps): void {
  const { moderation, requireAdmin } = deps;

  app.post('/api/v1/comments/batch', { onRequest: requireAdmin }, async (request) => {
    const { action, ids } = parseBatchBody(request.body);
    const result = moderation.batch(action, ids);
    if (result.done.length > 0) deps.onChange();
    return { action, ...result };
  });

  // The pending list with what the rules made of each comment: its flag and, while kept, its address.
  app.get('/api/v1/moderation/queue', { onRequest: requireAdmin }, async (request) => {
    const { items, more } = moderation.queue(parseQueueQuery(request.query));
    const last = items[items.length - 1];
    return { items, next: more && last !== undefined ? encodeCursor(last.id) : null, counts: moderation.counts() };
  });

  app.get('/api/v1/moderation/rules', { onRequest: requireAdmin }, async () => ({ items: moderation.rules() }));

  app.post('/api/v1/moderation/rules', { onRequest: requireAdmin }, async (request, reply) =>
    reply.status(201).send(moderation.addRule(parseRuleInput(request.body))),
  );

  app.get<{ Params: { id: string } }>('/api/v1/moderation/rules/:id', { onRequest: requireAdmin }, async (request) => {
    const id = parseRuleId(request.params.id);
    const rule = moderation.rule(id);
    if (rule === undefined) throw ERRORS.RULE_NOT_FOUND(id);
    return rule;
  });

  app.put<{ Params: { id: string } }>('/api/v1/moderation/rules/:id', { onRequest: requireAdmin }, async (request) => {
    const id = parseRuleId(request.params.id);
    const rule = moderation.replaceRule(id, parseRuleInput(request.body));
    if (rule === undefined) throw ERRORS.RULE_NOT_FOUND(id);
    return rule;
  });

  app.delete<{ Params: { id: string } }>('/api/v1/moderation/rules/:id', { onRequest: requireAdmin }, async (request, reply) => {
    const id = parseRuleId(request.params.id);
    if (!moderation.deleteRule(id)) throw ERRORS.RULE_NOT_FOUND(id);
    return reply.status(204).send();
  });
}
