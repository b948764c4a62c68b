import { createReadStream } from 'node:fs';
import type { FastifyBodyParser, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { ERRORS } from '../../error-codes.js';
import { answerError } from '../../http/index.js';
import type { Logger } from '../../log.js';
import type { DeskGuard } from '../desk/index.js';
import type { ImageLibrary } from './library.js';
import { CONTENT_TYPES, IMAGE_PREFIX, IMMUTABLE } from './names.js';

export interface ImageRouteDeps {
  library: ImageLibrary;
  logger: Logger;
}

/** The body as it came, whatever its Content-Type says: the type is told by the bytes (sniffImageType). */
const rawBody: FastifyBodyParser<Buffer> = (_request, body, done) => done(null, body);

/** The upload route in a scope of its own: its raw body parser and its JSON errors stay there. */
async function registerUpload(parent: FastifyInstance, path: string, onRequest: onRequestHookHandler, deps: ImageRouteDeps): Promise<void> {
  const { library, logger } = deps;
  await parent.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: library.maxBytes }, rawBody);
    scope.setErrorHandler((error: FastifyError | Error, request, reply) => {
      const tooLarge = 'code' in error && error.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
      return answerError(tooLarge ? ERRORS.IMAGE_TOO_LARGE(library.maxBytes) : error, request, reply, logger);
    });
    // The session or token is checked before the body is read, so a stranger cannot make the origin read megabytes.
    scope.post(path, { onRequest, bodyLimit: library.maxBytes }, async (request, reply) => {
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw ERRORS.IMAGE_TYPE_REFUSED('send the file itself as the body, not a form or JSON');
      const { image, created } = await library.upload(body);
      return reply.status(created ? 201 : 200).send(image);
    });
  });
}

/**
 * `POST /api/v1/images` (the bearer token, for automation) and `GET /api/v1/images/<name>` (public: the fronts fetch
 * files here to serve them under `/_render/image/`), and the files at `/_render/image/<name>` too, for the desk.
 */
export async function registerImageRoutes(app: FastifyInstance, requireAdmin: onRequestHookHandler, deps: ImageRouteDeps): Promise<void> {
  await registerUpload(app, '/api/v1/images', requireAdmin, deps);
  app.get<{ Params: { name: string } }>('/api/v1/images/:name', async (request, reply) => sendImage(deps.library, request, reply));
  // The desk is on the origin: its preview shows a post's images from here, under the same URLs as readers.
  app.get<{ Params: { name: string } }>(`${IMAGE_PREFIX}:name`, async (request, reply) => sendImage(deps.library, request, reply));
}

/** `POST /admin/images`: the desk's upload, behind the editor's session and its token in the `x-csrf-token` header. */
export async function registerImagesDesk(scope: FastifyInstance, guard: DeskGuard, deps: ImageRouteDeps): Promise<void> {
  await registerUpload(scope, '/admin/images', guard.change, deps);
}

async function sendImage(library: ImageLibrary, request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const name = request.params.name;
  const file = await library.file(name);
  if (file === undefined) throw ERRORS.NOT_FOUND('such image');
  const etag = `"${name}"`;
  reply.headers({ 'cache-control': IMMUTABLE, etag, 'x-content-type-options': 'nosniff' });
  if (request.headers['if-none-match']?.split(',').some((tag) => tag.trim() === etag) === true) return reply.status(304).send();
  return reply.type(CONTENT_TYPES[file.format]).header('content-length', String(file.size)).send(createReadStream(file.path));
}
