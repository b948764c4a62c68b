import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import { isAppError } from '../../errors.js';
import type { OriginDatabase } from '../database.js';
import type { ContentStore } from '../store.js';
import { imageLookup } from '../images/library.js';
import { BODY_LIMITS, parseOid, parsePostInput } from '../validation.js';
import { deskScript } from './desk-script.js';
import {
  actionsFor,
  apiFields,
  EMPTY_VALUES,
  editorAction,
  editorValues,
  problemOf,
  publicationTime,
  valuesOfPost,
  type EditorAction,
  type EditorValues,
  type FieldProblem,
} from './editor-form.js';
import { editorPage } from './editor-page.js';
import { postForEditor, saveFromEditor } from './editor-save.js';
import type { DeskGuard } from './guard.js';
import { deskPostLines, postsPage } from './posts-page.js';
import { renderPostPreview, type PreviewSite } from './preview.js';
import { draftOfValues, imagesNeedingAlt, parsePreviewRequest, previewPost } from './preview-input.js';
import { DESK_STATIC_PREFIX } from './session-policy.js';

export interface EditorDeskOptions {
  db: OriginDatabase;
  store: ContentStore;
  /** Called after every save (wakes the outboxes), as the API's writes do. */
  onChange: () => void;
  /** Who the preview shows the site as: the front's identity, locale and public address. */
  preview: PreviewSite;
  /** @default () => new Date() */
  now?: () => Date;
}

/** The header the preview answers the images without alt text in: URI-encoded JSON, so any address fits a header. */
export const MISSING_ALT_HEADER = 'x-images-without-alt';

/** What the status region says after a save, by the button pressed. */
const SAVED: Readonly<Partial<Record<EditorAction, string>>> = {
  'save-draft': 'Draft saved.',
  publish: 'Published.',
  schedule: 'Scheduled.',
  unpublish: 'Unpublished: the post is a draft again.',
};

const html = (reply: FastifyReply, status: number, page: string) => reply.status(status).type('text/html; charset=utf-8').send(page);

function sessionOf(request: FastifyRequest) {
  const session = request.deskSession;
  if (session === null) throw ERRORS.DESK_LOGIN_REQUIRED();
  return session;
}

/** `?page=N` of the list, from 1; anything else is the first page. */
function pageNumber(query: unknown): number {
  const value = typeof query === 'object' && query !== null ? (query as Record<string, unknown>).page : undefined;
  return typeof value === 'string' && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/**
 * The editor's desk: the posts list at `/admin/`, the editor at `/admin/posts/new` and `/admin/posts/<oid>`, the
 * preview through the renderer (`POST /admin/preview`, `GET /admin/posts/<oid>/preview`) and the desk's script. Call
 * from registerDesk's `routes`.
 */
export async function registerEditorDesk(scope: FastifyInstance, guard: DeskGuard, options: EditorDeskOptions): Promise<void> {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const script = await deskScript();
  const images = imageLookup(options.db);

  const editor = (request: FastifyRequest, reply: FastifyReply, status: number, editing: string | undefined, values: EditorValues, extra: { problems?: FieldProblem[]; notice?: string; previewHtml?: string }) => {
    const current = editing === undefined ? undefined : postForEditor(store, editing);
    return html(
      reply,
      status,
      editorPage({
        csrfToken: sessionOf(request).csrfToken,
        script: script.path,
        editing,
        state: current?.state,
        values,
        problems: extra.problems ?? [],
        notice: extra.notice,
        previewHtml: extra.previewHtml,
        imagesWithoutAlt: imagesNeedingAlt(values.format, values.body),
      }),
    );
  };

  /** A posted editor form: a preview of it, or a save and the way back to the post (303), or the form with its problems. */
  const submit = async (request: FastifyRequest, reply: FastifyReply, editing: string | undefined) => {
    const values = editorValues(request.body);
    const state = editing === undefined ? undefined : postForEditor(store, editing)?.state;
    const action = editorAction(request.body) ?? actionsFor(state)[0] ?? 'publish';
    const time = publicationTime(values, now());
    if (action === 'preview') {
      const pubDate = typeof time === 'string' ? time : now().toISOString();
      const previewHtml = renderPostPreview(previewPost(draftOfValues(values, pubDate), images), { count: 0, items: [] }, options.preview);
      return editor(request, reply, 200, editing, values, { previewHtml, notice: 'Preview updated below.' });
    }
    const problems: FieldProblem[] = typeof time === 'string' ? [] : [time];
    const pubDate = typeof time === 'string' ? time : now().toISOString();
    try {
      parseOid(values.slug);
    } catch (error) {
      if (isAppError(error)) problems.push(problemOf(error.message));
    }
    let status = 400;
    try {
      if (problems.length > 0) parsePostInput(apiFields(values, pubDate));
      else {
        const oid = saveFromEditor(store, { action, oid: values.slug, editing, fields: apiFields(values, pubDate), by: sessionOf(request).userName, now: now() });
        options.onChange();
        return reply.redirect(`/admin/posts/${oid}?saved=${action}`, 303);
      }
    } catch (error) {
      if (!isAppError(error) || error.status >= 500) throw error;
      status = error.status;
      problems.push(problemOf(error.message));
    }
    return editor(request, reply, status, editing, values, { problems });
  };

  scope.get(`${DESK_STATIC_PREFIX}:name`, async (request, reply) => {
    if (request.url !== script.path) throw ERRORS.NOT_FOUND(`desk file ${request.url.slice(0, 120)}`);
    return reply.type('text/javascript; charset=utf-8').send(script.bytes);
  });

  scope.get('/admin/', { preHandler: guard.page }, async (request, reply) => {
    const session = sessionOf(request);
    const page = pageNumber(request.query);
    const { lines, more } = deskPostLines(options.db, page);
    return html(reply, 200, postsPage({ userName: session.userName, csrfToken: session.csrfToken, lines, page, more }));
  });

  scope.get('/admin/posts/new', { preHandler: guard.page }, async (request, reply) => editor(request, reply, 200, undefined, EMPTY_VALUES, {}));
  scope.post('/admin/posts/new', { preHandler: guard.change, bodyLimit: BODY_LIMITS.post }, async (request, reply) => submit(request, reply, undefined));

  scope.get<{ Params: { oid: string }; Querystring: { saved?: string } }>('/admin/posts/:oid', { preHandler: guard.page }, async (request, reply) => {
    const oid = parseOid(request.params.oid);
    const page = postForEditor(store, oid);
    if (page === undefined) throw ERRORS.POST_NOT_FOUND(oid);
    const saved = editorAction({ action: request.query.saved });
    return editor(request, reply, 200, oid, valuesOfPost(page.post), {
      notice: saved === undefined ? undefined : SAVED[saved],
      previewHtml: renderPostPreview(page.post, page.comments, options.preview),
    });
  });
  scope.post<{ Params: { oid: string } }>('/admin/posts/:oid', { preHandler: guard.change, bodyLimit: BODY_LIMITS.post }, async (request, reply) => {
    const oid = parseOid(request.params.oid);
    if (postForEditor(store, oid) === undefined) throw ERRORS.POST_NOT_FOUND(oid);
    return submit(request, reply, oid);
  });

  // The stored post as readers would see it, whatever its state: the preview link of a draft or a scheduled post.
  scope.get<{ Params: { oid: string } }>('/admin/posts/:oid/preview', { preHandler: guard.page }, async (request, reply) => {
    const oid = parseOid(request.params.oid);
    const page = postForEditor(store, oid);
    if (page === undefined) throw ERRORS.POST_NOT_FOUND(oid);
    return html(reply, 200, renderPostPreview(page.post, page.comments, options.preview));
  });

  // The editor's live preview: the page of the post as typed, stored nowhere (no-store, as every desk answer).
  scope.post('/admin/preview', { preHandler: guard.change, bodyLimit: BODY_LIMITS.post }, async (request, reply) => {
    const draft = parsePreviewRequest(request.body, now());
    reply.header(MISSING_ALT_HEADER, encodeURIComponent(JSON.stringify(imagesNeedingAlt(draft.format, draft.body))));
    return html(reply, 200, renderPostPreview(previewPost(draft, images), { count: 0, items: [] }, options.preview));
  });
}
