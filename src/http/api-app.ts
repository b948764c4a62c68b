import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Logger } from '../log.js';
import { installErrorMapper } from './error-mapper.js';

export interface ApiDeps {
  logger: Logger;
  /** Route plugins of the components that serve `/api/*` on the front (search, autocomplete, songs). */
  plugins?: readonly FastifyPluginAsync[];
  /** Largest request body. @default 1048576 */
  bodyLimit?: number;
}

/**
 * The front's `/api/*` app: the shared error mapper, a JSON 404 for unknown routes, and every component's route
 * plugin. It never listens itself: the front hands it requests through `routing` (see front.ts). Ready when resolved.
 */
export async function createApiApp(deps: ApiDeps): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, bodyLimit: deps.bodyLimit ?? 1024 * 1024 });
  installErrorMapper(app, deps.logger);
  for (const plugin of deps.plugins ?? []) await app.register(plugin);
  await app.ready();
  return app;
}
