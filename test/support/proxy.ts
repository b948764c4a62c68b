import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';
import { startProxy, type RunningProxy, type StartProxyOptions } from '../../src/server/proxy-command.js';

export const PURGE_SECRET = 'proxy-test-secret-0123456789';

/** A plain node:http application on 127.0.0.1, with the connections it accepted counted. */
export interface TestUpstream {
  url: string;
  server: Server;
  /** Connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections: number;
  /** Requests answered so far. */
  requests: number;
  close(): Promise<void>;
}

async function listening(server: Server | NetServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server and every connection it still holds. */
async function closeAll(server: Server | NetServer, sockets: Set<Socket>): Promise<void> {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

export async function startUpstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestUpstream> {
  const sockets = new Set<Socket>();
  const upstream = { connections: 0, requests: 0 } as TestUpstream;
  const server = createServer((req, res) => {
    upstream.requests++;
    handler(req, res);
  });
  server.on('connection', (socket) => {
    upstream.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  upstream.server = server;
  upstream.url = await listening(server);
  upstream.close = () => closeAll(server, sockets);
  return upstream;
}

/** A TCP server that answers every request with the bytes `answer` writes on the socket: hostile upstreams. */
export async function startRawUpstream(answer: (socket: Socket) => void): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => answer(socket));
  });
  const url = await listening(server);
  return { url, close: () => closeAll(server, sockets) };
}

/** `sitestack proxy` as the command starts it, on a free port, before `upstreams`, with `env` over the test's defaults. */
export async function startTestProxy(upstreams: readonly string[], env: Record<string, string> = {}, options: Partial<StartProxyOptions> = {}): Promise<RunningProxy> {
  const config = loadConfig({ PURGE_SECRET, UPSTREAM_URL: upstreams.join(','), LOG_LEVEL: 'silent', LOG_REQUESTS: 'off', ...env });
  return startProxy({ config, logger: silentLogger(), port: 0, ...options });
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request over a fresh connection; rejects when the answer is cut short (a reset, or fewer bytes than announced). */
export async function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => (res.complete ? resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }) : reject(new Error('cut short'))));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Purges through the proxy's purge route. */
export async function purge(proxy: RunningProxy, request: { pathnames?: string[]; keys?: string[] }): Promise<Answer> {
  return send(`${proxy.url}/__purge__`, {
    method: 'POST',
    headers: { authorization: `Bearer ${PURGE_SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
}
