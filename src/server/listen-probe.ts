import { createServer } from 'node:net';
import { startupError } from './startup-errors.js';

/**
 * Listens on `host:port` and closes again, rejecting with the one-line AppError of a listen failure (a port in use, a
 * HOST that does not resolve or is not this machine's) naming `variable`. Run before a server opens its stores, and
 * for the listeners another process opens (nginx, cluster workers), whose own failure would come as many lines. Port
 * 0 is always free.
 */
export async function probeListen(host: string, port: number, variable: 'PORT' | 'ORIGIN_PORT' | 'EDGE_PORT'): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    throw startupError(error, { host }, variable) ?? error;
  }
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
