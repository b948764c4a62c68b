// The common pattern: Express with an lru-cache middleware that patches res.write/res.end to capture the response,
// and answers hits with res.set(headers) + res.send(body).
import type { OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { LRUCache } from 'lru-cache';
import { renderer } from './renderer.js';

interface Stored {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

const render = renderer(process.argv[2]);
const cache = new LRUCache<string, Stored>({ max: 1000 });
const app = express();

app.use((req, res, next) => {
  const key = req.originalUrl;
  const hit = cache.get(key);
  if (hit !== undefined) {
    res.set(hit.headers as Record<string, string>);
    res.set('x-middleware-cache', 'hit');
    res.send(hit.body);
    return;
  }
  res.set('x-middleware-cache', 'miss');
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => express.Response;
  res.write = ((chunk: string | Buffer, ...rest: unknown[]) => {
    chunks.push(Buffer.from(chunk));
    return write(chunk, ...rest);
  }) as typeof res.write;
  res.end = ((chunk?: string | Buffer, ...rest: unknown[]) => {
    if (chunk !== undefined && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
    if (res.statusCode === 200) cache.set(key, { headers: res.getHeaders(), body: Buffer.concat(chunks) });
    return end(chunk, ...rest);
  }) as typeof res.end;
  next();
});
app.get('/{*path}', (req, res) => render(req, res));

const server = app.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
