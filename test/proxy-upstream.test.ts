import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { RunningProxy } from '../src/server/proxy-command.js';
import { send, startRawUpstream, startTestProxy, startUpstream, type TestUpstream } from './support/proxy.js';

/** Gates a streamed answer: the upstream holds its second chunk until the test has read the first. */
let releaseStream: () => void = () => undefined;

/** Echoes what it was sent: method, path, the headers it got, and the request body. */
function echo(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  if (path === '/stream') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<p>first chunk</p>');
    releaseStream = () => res.end('<p>second chunk</p>');
    return;
  }
  if (path === '/hop') {
    res.writeHead(200, { 'content-type': 'text/plain', connection: 'x-private', 'x-private': 'secret', 'keep-alive': 'timeout=5', via: '1.0 app', 'cache-control': 'no-store' });
    res.end('hop');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.stringify({ method: req.method, url: path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(body);
  });
}

/** A port nothing listens on: an upstream that refuses connections. */
async function closedPort(): Promise<string> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('sitestack proxy forwarding', () => {
  let upstream: TestUpstream;
  let proxy: RunningProxy;

  before(async () => {
    upstream = await startUpstream(echo);
    proxy = await startTestProxy([upstream.url]);
  });
  after(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('passes request bodies through, fixed-length and chunked, with their method', async () => {
    const fixed = JSON.parse((await send(`${proxy.url}/api/form`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'name=δ&x=1' })).body);
    assert.equal(fixed.method, 'POST');
    assert.equal(fixed.body, 'name=δ&x=1');
    const chunked = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/api/upload`, { method: 'PUT', agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      for (let i = 0; i < 50; i++) req.write(`part ${i};`);
      req.end();
    });
    const parsed = JSON.parse(chunked);
    assert.equal(parsed.method, 'PUT');
    assert.equal(parsed.body, Array.from({ length: 50 }, (_, i) => `part ${i};`).join(''));
  });

  it('sets X-Forwarded-For, -Proto, -Host and Via, and the upstream its own Host', async () => {
    const seen = JSON.parse((await send(`${proxy.url}/api/who`, { headers: { host: 'www.example.com', 'x-forwarded-for': '203.0.113.5', via: '1.1 edge' } })).body);
    assert.equal(seen.headers.host, new URL(upstream.url).host);
    // The test client is on loopback, a trusted proxy by default: its chain is kept and it is appended.
    assert.equal(seen.headers['x-forwarded-for'], '203.0.113.5, 127.0.0.1');
    assert.equal(seen.headers['x-forwarded-proto'], 'http');
    assert.equal(seen.headers['x-forwarded-host'], 'www.example.com');
    assert.equal(seen.headers.via, '1.1 edge, 1.1 sitestack');
  });

  it('believes no X-Forwarded-* from a peer that is not a trusted proxy', async () => {
    const strict = await startTestProxy([upstream.url], { TRUSTED_PROXIES: 'none' });
    try {
      const seen = JSON.parse((await send(`${strict.url}/api/who`, { headers: { host: 'site.test', 'x-forwarded-for': '203.0.113.5', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.test' } })).body);
      assert.equal(seen.headers['x-forwarded-for'], '127.0.0.1');
      assert.equal(seen.headers['x-forwarded-proto'], 'http');
      assert.equal(seen.headers['x-forwarded-host'], 'site.test');
    } finally {
      await strict.close();
    }
  });

  it('removes hop-by-hop fields both ways, including those Connection names', async () => {
    const seen = JSON.parse((await send(`${proxy.url}/api/hop`, { headers: { connection: 'x-hop', 'x-hop': '1', te: 'trailers', 'proxy-authorization': 'Basic x', 'x-kept': 'yes' } })).body);
    assert.equal(seen.headers['x-hop'], undefined);
    assert.equal(seen.headers.te, undefined);
    assert.equal(seen.headers['proxy-authorization'], undefined);
    assert.equal(seen.headers['x-kept'], 'yes');
    const answer = await send(`${proxy.url}/hop`);
    assert.equal(answer.headers['x-private'], undefined);
    assert.equal(answer.headers.via, '1.0 app, 1.1 sitestack');
  });

  it('sends the first chunk of a streamed answer before the upstream has finished it', async () => {
    const first = await new Promise<{ chunk: string; rest: Promise<string> }>((resolve, reject) => {
      const req = httpRequest(`${proxy.url}/stream`, { agent: false }, (res) => {
        res.setEncoding('utf8');
        res.once('data', (chunk: string) => {
          let rest = '';
          resolve({ chunk, rest: new Promise((done) => res.on('data', (more: string) => (rest += more)).on('end', () => done(rest))) });
        });
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(first.chunk, '<p>first chunk</p>');
    releaseStream();
    assert.equal(await first.rest, '<p>second chunk</p>');
  });

  it('reuses kept-alive connections to the upstream', async () => {
    const before = upstream.connections;
    for (let i = 0; i < 20; i++) await send(`${proxy.url}/api/again-${i}`);
    assert.ok(upstream.connections - before <= 1, `${upstream.connections - before} connections for 20 requests`);
  });

  it('answers an absolute-form target for its path, and a target that is neither 400', async () => {
    const seen = JSON.parse((await send(`${proxy.url}/api/x`, { headers: {} })).body);
    assert.equal(seen.url, '/api/x');
    const raw = await rawRequest(proxy, 'GET http://elsewhere.test/api/abs?q=1 HTTP/1.1\r\nHost: elsewhere.test\r\nConnection: close\r\n\r\n');
    assert.match(raw, /^HTTP\/1\.1 200/);
    assert.match(raw, /"url":"\/api\/abs\?q=1"/);
    assert.match(await rawRequest(proxy, 'GET /国际 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'), /^HTTP\/1\.1 400/);
    assert.match(await rawRequest(proxy, `GET /${'a'.repeat(9000)} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`), /^HTTP\/1\.1 414/);
    assert.match(await rawRequest(proxy, `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(20_000)}\r\nConnection: close\r\n\r\n`), /^HTTP\/1\.1 431/);
  });
});

/** Sends `text` as is over a new connection and resolves with everything the proxy answers until it closes. */
async function rawRequest(proxy: RunningProxy, text: string): Promise<string> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(Buffer.from(text, 'utf8')));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('sitestack proxy when upstreams fail', () => {
  it('goes round the upstreams in turn and skips one that refuses connections', async () => {
    const a = await startUpstream((_req, res) => res.end('a'));
    const b = await startUpstream((_req, res) => res.end('b'));
    const proxy = await startTestProxy([a.url, await closedPort(), b.url]);
    try {
      const bodies = [];
      for (let i = 0; i < 6; i++) bodies.push((await send(`${proxy.url}/api/rr`)).body);
      assert.deepEqual(new Set(bodies), new Set(['a', 'b']));
      assert.ok(bodies.every((body) => body === 'a' || body === 'b'));
    } finally {
      await proxy.close();
      await a.close();
      await b.close();
    }
  });

  it('answers 502 in the JSON error body or a page when no upstream is reachable, and /readyz reports it', async () => {
    const proxy = await startTestProxy([await closedPort()]);
    try {
      const json = await send(`${proxy.url}/never-cached`, { headers: { accept: 'application/json' } });
      assert.equal(json.status, 502);
      assert.equal(json.headers['cache-control'], 'no-store');
      assert.deepEqual(JSON.parse(json.body), { error: 'the site did not answer as expected', code: 'PROXY_UPSTREAM_FAILED' });
      const page = await send(`${proxy.url}/never-cached`, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 502);
      assert.match(page.body, /<h1>502<\/h1>/);
      const ready = JSON.parse((await send(`${proxy.url}/readyz`)).body);
      assert.equal(ready.checks.upstream.ok, false);
    } finally {
      await proxy.close();
    }
  });

  it('answers 504 when the upstream sends no head within the first-byte timeout', async () => {
    const silent = await startRawUpstream(() => undefined);
    const proxy = await startTestProxy([silent.url], { UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '150' });
    try {
      const answer = await send(`${proxy.url}/slow`, { headers: { accept: 'application/json' } });
      assert.equal(answer.status, 504);
      assert.equal(JSON.parse(answer.body).code, 'PROXY_UPSTREAM_TIMEOUT');
    } finally {
      await proxy.close();
      await silent.close();
    }
  });

  it('cuts the answer when the upstream falls silent mid-body, and stores nothing', async () => {
    const stalling = await startRawUpstream((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100\r\n\r\n<p>partial'));
    const proxy = await startTestProxy([stalling.url], { UPSTREAM_IDLE_TIMEOUT_MS: '150' });
    try {
      await assert.rejects(send(`${proxy.url}/stall`));
      assert.equal(proxy.pageCache.size, 0);
    } finally {
      await proxy.close();
      await stalling.close();
    }
  });

  const hostile: ReadonlyArray<[string, string, 'refused' | 'cut']> = [
    ['a status line that is not HTTP', 'HELLO THERE\r\n\r\n', 'refused'],
    ['a status that is not three digits', 'HTTP/1.1 20x OK\r\nContent-Length: 0\r\n\r\n', 'refused'],
    ['a status beyond 599', 'HTTP/1.1 700 Odd\r\nContent-Length: 2\r\n\r\nhi', 'refused'],
    ['an informational status as its answer', 'HTTP/1.1 101 Switching\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n', 'refused'],
    ['a head larger than the bound', `HTTP/1.1 200 OK\r\nX-Big: ${'h'.repeat(100_000)}\r\nContent-Length: 2\r\n\r\nhi`, 'refused'],
    ['an invalid Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\nhi', 'refused'],
    ['two different Content-Lengths', 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nhi!', 'refused'],
    ['a header with a control character', 'HTTP/1.1 200 OK\r\nX-Bad: a\u0001b\r\nContent-Length: 2\r\n\r\nhi', 'refused'],
    ['a body shorter than its Content-Length', 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n<p>only this</p>', 'cut'],
    ['a chunked body that stops before its last chunk', 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n', 'cut'],
    ['a chunked body with a malformed chunk size', 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n', 'cut'],
  ];
  for (const [what, bytes, outcome] of hostile) {
    it(`${outcome === 'refused' ? 'answers 502' : 'cuts the answer'} and stores nothing when the upstream sends ${what}`, async () => {
      const raw = await startRawUpstream((socket) => socket.end(bytes, 'latin1'));
      const proxy = await startTestProxy([raw.url]);
      try {
        if (outcome === 'refused') {
          const answer = await send(`${proxy.url}/page`, { headers: { accept: 'application/json' } });
          assert.equal(answer.status, 502);
          assert.equal(JSON.parse(answer.body).code, 'PROXY_UPSTREAM_FAILED');
        } else await assert.rejects(send(`${proxy.url}/page`), /cut short|aborted|ECONNRESET|socket hang up/);
        assert.equal(proxy.pageCache.size, 0);
      } finally {
        await proxy.close();
        await raw.close();
      }
    });
  }
});
