import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import { isAppError } from '../../errors.js';
import type { DeskGuard } from '../desk/index.js';
import { isObject } from '../merge-patch.js';
import { encodeCursor } from '../pending-page.js';
import { parseQueueForm, parseQueueQuery, parseRuleId } from './input.js';
import { QUEUE_PATH, queuePage, RULES_PATH, rulesPage } from './pages.js';
import { parseRuleInput, type RuleInput } from './rules.js';
import type { ModerationStore } from './store.js';

export interface ModerationDeskDeps {
  moderation: ModerationStore;
  /** Called after a change that enqueued a purge. */
  onChange: () => void;
  /** `PUBLIC_URL`, for links to the posts; unset: links on this host. */
  publicUrl?: string | undefined;
}

/**
 * Comments a desk page shows at most: its form, every box ticked, must fit the desk's 16 KiB form bound (a box is about
 * 20 bytes, and "select all" lists the page's ids once more).
 */
const DESK_PAGE_MAX = 100;

/** The query fields of the status line a page shows after a change. */
const STATUS_FIELDS = ['done', 'n', 'missing'];

const DONE: Record<string, (count: number) => string> = {
  approve: (count) => `Approved ${count} comment${count === 1 ? '' : 's'}.`,
  delete: (count) => `Deleted ${count} comment${count === 1 ? '' : 's'}.`,
  added: () => 'Rule added.',
  removed: () => 'Rule removed.',
};

/** The line a page shows after a change it was redirected from (`done`, `n`, `missing`); nothing for anything else. */
function noticeOf(query: Record<string, unknown>): string | undefined {
  const say = typeof query.done === 'string' ? DONE[query.done] : undefined;
  if (say === undefined || !Object.hasOwn(DONE, query.done as string)) return undefined;
  const count = (name: string) => (typeof query[name] === 'string' && /^\d{1,4}$/.test(query[name]) ? Number(query[name]) : 0);
  const missing = count('missing');
  return `${say(count('n'))}${missing > 0 ? ` ${missing} had already gone (deleted elsewhere).` : ''}`;
}

/** A refused form's message, for its page to show in place; other errors go on to the desk's error page. */
function formProblem(error: unknown): string {
  if (isAppError(error) && error.status < 500 && error.status !== 401 && error.status !== 403) return error.message;
  throw error;
}

/** Where readers see the site, for links from the desk to its pages: `PUBLIC_URL` without a trailing slash, or '' (this host). */
export function siteBase(publicUrl: string | undefined): string {
  return publicUrl === undefined ? '' : publicUrl.replace(/\/+$/, '');
}

/** The desk's moderation pages: the queue at `/admin/comments` and the rules at `/admin/comments/rules`. */
export function registerModerationDesk(scope: FastifyInstance, guard: DeskGuard, deps: ModerationDeskDeps): void {
  const { moderation } = deps;
  const siteUrl = siteBase(deps.publicUrl);
  const html = (reply: FastifyReply, status: number, page: string) => reply.status(status).type('text/html; charset=utf-8').send(page);
  const token = (request: FastifyRequest) => {
    if (request.deskSession === null) throw ERRORS.DESK_LOGIN_REQUIRED();
    return request.deskSession.csrfToken;
  };

  const queue = (request: FastifyRequest, reply: FastifyReply, status: number, error?: string) => {
    const query = isObject(request.query) ? request.query : {};
    const page = parseQueueQuery(query, STATUS_FIELDS);
    const flagged = page.flagged;
    const { items, more } = moderation.queue({ ...page, limit: Math.min(page.limit, DESK_PAGE_MAX) });
    const last = items[items.length - 1];
    const next = more && last !== undefined ? `${QUEUE_PATH}?${flagged ? 'flagged=1&' : ''}cursor=${encodeCursor(last.id)}` : undefined;
    const notice = error === undefined ? noticeOf(query) : undefined;
    return html(reply, status, queuePage({ csrfToken: token(request), items, counts: moderation.counts(), flagged, siteUrl, next, notice, error }));
  };

  scope.get(QUEUE_PATH, { preHandler: guard.page }, async (request, reply) => queue(request, reply, 200));

  scope.post(QUEUE_PATH, { preHandler: guard.change }, async (request, reply) => {
    let batch: ReturnType<typeof parseQueueForm>;
    try {
      batch = parseQueueForm(request.body);
    } catch (error) {
      return queue(request, reply, 400, formProblem(error));
    }
    const result = moderation.batch(batch.action, batch.ids);
    if (result.done.length > 0) deps.onChange();
    const flagged = (request.query as Record<string, unknown>).flagged === '1' ? 'flagged=1&' : '';
    return reply.redirect(`${QUEUE_PATH}?${flagged}done=${batch.action}&n=${result.done.length}&missing=${result.missing.length}`, 303);
  });

  const rules = (request: FastifyRequest, reply: FastifyReply, status: number, error?: string, draft?: Partial<Record<keyof RuleInput, string>>) =>
    html(reply, status, rulesPage({ csrfToken: token(request), rules: moderation.rules(), notice: noticeOf(request.query as Record<string, unknown>), error, draft }));

  scope.get(RULES_PATH, { preHandler: guard.page }, async (request, reply) => rules(request, reply, 200));

  scope.post(RULES_PATH, { preHandler: guard.change }, async (request, reply) => {
    try {
      moderation.addRule(parseRuleInput(request.body));
    } catch (error) {
      const message = formProblem(error);
      const fields = isObject(request.body) ? request.body : {};
      const draft = Object.fromEntries(['kind', 'pattern', 'action', 'note'].map((name) => [name, typeof fields[name] === 'string' ? fields[name].slice(0, 300) : '']));
      return rules(request, reply, isAppError(error) ? error.status : 400, message, draft);
    }
    return reply.redirect(`${RULES_PATH}?done=added`, 303);
  });

  scope.post<{ Params: { id: string } }>(`${RULES_PATH}/:id/delete`, { preHandler: guard.change }, async (request, reply) => {
    const id = parseRuleId(request.params.id);
    if (!moderation.deleteRule(id)) throw ERRORS.RULE_NOT_FOUND(id);
    return reply.redirect(`${RULES_PATH}?done=removed`, 303);
  });
}
