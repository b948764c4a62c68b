import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../error-codes.js';
import { errorBody, isAppError, type AppError, type ErrorBody } from '../errors.js';
import type { Logger } from '../log.js';
import { logUrl } from '../log-bounds.js';

function answer(reply: FastifyReply, error: AppError): FastifyReply {
  return reply.status(error.status).send(errorBody(error));
}

/**
 * Answers a failed request: AppErrors with their own status and code, fastify's own client errors (bad JSON, body too
 * large, unsupported media type) with their 4xx status and code, anything else logged and answered as a 500 that
 * reveals nothing. Every answer has the body of docs/errors.md. For a scope whose parent answers errors otherwise.
 */
export function answerError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply, logger: Logger): FastifyReply {
  if (isAppError(error)) {
    if (error.status >= 500) logger.error({ err: error, url: logUrl(request.url) }, error.message);
    return answer(reply, error);
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    // fastify's own codes (FST_ERR_…) are kept: they are as stable as ours, and clients may already read them.
    const code = 'code' in error && typeof error.code === 'string' ? error.code : ERRORS.BAD_REQUEST.code;
    return reply.status(status).send({ error: error.message, code } satisfies ErrorBody);
  }
  logger.error({ err: error, url: logUrl(request.url) }, 'unhandled error');
  return answer(reply, ERRORS.INTERNAL());
}

/** The one error mapper of a fastify server (answerError), and its 404 for unknown routes. */
export function installErrorMapper(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => answerError(error, request, reply, logger));
  app.setNotFoundHandler((request, reply) => {
    return answer(reply, ERRORS.NOT_FOUND(`route for ${request.method} ${request.url}`));
  });
}
