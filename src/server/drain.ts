import { subscribe } from 'node:diagnostics_channel';
import type { Server, ServerResponse } from 'node:http';
import type { Logger } from '../log.js';

/** How a running server stops (`close()` of the front and of the origin). */
export interface StopOptions {
  /** Aborting it ends the drain at once and cuts the connections still open (a second SIGINT or SIGTERM). */
  force?: AbortSignal;
}

/** Options of {@link drainServer}. */
export interface DrainOptions extends StopOptions {
  logger: Logger;
  /** How long the requests in flight may take to finish; then their connections are cut. @default 10000 */
  timeoutMs?: number;
  /** Names the server in the log line of a cut drain. @default 'server' */
  name?: string;
  /**
   * Closes the server and resolves once its last connection has ended. A fastify app passes its own `close()`, so
   * its onClose hooks run too. @default `server.close()`
   */
  close?: () => Promise<void>;
}

export const DRAIN_DEFAULTS = { timeoutMs: 10_000, name: 'server' } as const;

/** Responses not finished yet, per server. */
const inFlight = new WeakMap<Server, Set<ServerResponse>>();
const draining = new WeakSet<Server>();

/** Makes `response` the last one of its connection: `Connection: close` while that can still be said, else the idle socket is closed. */
function lastOnConnection(server: Server, response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
  // A handler may still set its own Connection header: closing the idle socket after the answer covers that too.
  response.once('finish', () => server.closeIdleConnections());
}

// Found through Node's HTTP diagnostics channel rather than a 'request' listener, so a server created anywhere (fastify
// creates the origin's) can be drained with nothing installed where it is created. The channel runs before the
// server's 'request' listeners, so a request that starts during a drain is told `Connection: close` from the start.
subscribe('http.server.request.start', (message) => {
  const { server, response } = message as { server: Server; response: ServerResponse };
  let responses = inFlight.get(server);
  if (responses === undefined) inFlight.set(server, (responses = new Set()));
  const open = responses;
  open.add(response);
  // 'close' also comes when the client goes away before the answer ends, so nothing stays in the set. It comes once:
  // `on` spares every request the wrapper and the removal `once` costs.
  response.on('close', () => open.delete(response));
  if (draining.has(server)) lastOnConnection(server, response);
});

function closeServer(server: Server): Promise<void> {
  // The only error is "not running", which leaves nothing to wait for either.
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Stops `server` gracefully: it accepts no new connection, idle keep-alive connections are closed at once, the
 * requests in flight get their whole answer with `Connection: close`, and each connection closes after its answer.
 * Connections still open after `timeoutMs`, or when `force` is aborted, are cut and counted in one warning. Resolves
 * when the server is closed.
 */
export async function drainServer(server: Server, options: DrainOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DRAIN_DEFAULTS.timeoutMs;
  const { logger, force } = options;
  draining.add(server);
  const responses = inFlight.get(server) ?? new Set<ServerResponse>();
  for (const response of responses) lastOnConnection(server, response);
  const closed = options.close?.() ?? closeServer(server);
  let timer: NodeJS.Timeout | undefined;
  let onForce: (() => void) | undefined;
  const cut = new Promise<'timeout' | 'forced'>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, 'timeout');
    if (force?.aborted) resolve('forced');
    onForce = () => resolve('forced');
    force?.addEventListener('abort', onForce, { once: true });
  });
  try {
    const outcome = await Promise.race([closed.then(() => 'drained' as const), cut]);
    if (outcome === 'drained') return;
    logger.warn(
      { server: options.name ?? DRAIN_DEFAULTS.name, inFlight: responses.size, timeoutMs },
      outcome === 'forced' ? 'stopping at once: closing the connections still open' : 'drain time over: closing the connections still open',
    );
    server.closeAllConnections();
    await closed;
  } finally {
    clearTimeout(timer);
    if (onForce !== undefined) force?.removeEventListener('abort', onForce);
    draining.delete(server);
  }
}
