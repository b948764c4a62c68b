import type { FastifyError, FastifyInstance } from 'fastify';
import { isAppError } from '../errors.js';
import type { Logger } from '../log.js';
import { logUrl } from '../log-bounds.js';

/** The JSON body of every error answer of sitestack's JSON servers, unless an endpoint's contract says otherwise. */
export interface ErrorBody {
  error: string;
  code: string;
}

/**
 * The one error mapper of a fastify server: AppErrors answer with their own status and code, fastify's own client
 * errors (bad JSON, body too large, unsupported media type) keep their 4xx status, and anything else is logged and
 * answered as a 500 that reveals nothing.
 */
export function installErrorMapper(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (isAppError(error)) {
      if (error.status >= 500) logger.error({ err: error, url: logUrl(request.url) }, error.message);
      return reply.status(error.status).send({ error: error.message, code: error.code } satisfies ErrorBody);
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const code = 'code' in error && typeof error.code === 'string' ? error.code : 'BAD_REQUEST';
      return reply.status(status).send({ error: error.message, code } satisfies ErrorBody);
    }
    logger.error({ err: error, url: logUrl(request.url) }, 'unhandled error');
    return reply.status(500).send({ error: 'internal server error', code: 'INTERNAL' } satisfies ErrorBody);
  });
  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ error: `no route for ${request.method} ${request.url}`, code: 'NOT_FOUND' } satisfies ErrorBody);
  });
}
