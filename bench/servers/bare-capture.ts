// The limit for Node beside a server under test: bare node:http sending, for every request, the body
// and headers `bare-capture.ts <url> [accept-encoding]` got once from <url> (asked with that Accept-Encoding), byte for
// byte. Prints `listening <url>`.
import { request, type IncomingHttpHeaders } from 'node:http';
import { listen } from './listen.js';

/** Headers of a connection or of a moment, which node:http writes itself for each answer. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const [url, acceptEncoding] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: bare-capture.ts <url> [accept-encoding]');
const captured = await new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
  const req = request(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }, agent: false }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => (res.statusCode === 200 ? resolve({ headers: res.headers, body: Buffer.concat(chunks) }) : reject(new Error(`${url}: ${res.statusCode}`))));
    res.on('error', reject);
  });
  req.on('error', reject);
  req.end();
});
const headers = Object.fromEntries(Object.entries(captured.headers).filter(([name]) => !PER_ANSWER.has(name)));
headers['content-length'] = String(captured.body.length);
listen((_req, res) => {
  res.writeHead(200, headers);
  res.end(captured.body);
});
