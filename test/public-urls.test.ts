import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../src/log.js';
import { rawText, type RawTextReply } from '../src/test-support/raw-http.js';
import { nginxForTests } from '../src/edge/test-support/edge-harness.js';
import { startFront, type RunningFront } from '../src/server/front-command.js';
import { startEdgeAndOrigin, type EdgeAndOrigin } from './support/stack.js';

const { nginx, skip } = nginxForTests();
const logger = silentLogger();
const POST = '/plog/first-look-sqlite';

/** A GET sent as written (no path normalisation, as `curl --path-as-is`), with any Host, from a chosen local address. */
function raw(base: string, path: string, headers: Record<string, string> = {}, localAddress = '127.0.0.1'): Promise<RawTextReply> {
  return rawText(base, path, { headers, localAddress });
}

const canonical = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];

/** Every absolute http(s) URL in a page, feed, sitemap or robots.txt. */
const absoluteUrls = (text: string) => text.match(/https?:\/\/[^\s"'<>]+/g) ?? [];

describe('absolute URLs of pages, feed, sitemap and robots.txt', { skip }, () => {
  let layers: EdgeAndOrigin;
  let front: RunningFront;
  const others: RunningFront[] = [];

  before(async () => {
    layers = await startEdgeAndOrigin(nginx!);
    front = await startFront({ config: layers.config, logger });
  });

  after(async () => {
    for (const other of others) await other.close();
    await front?.close();
    await layers?.close();
  });

  const hostile = { host: 'evil.example', 'x-forwarded-host': 'evil.example' };
  // The spellings of the issue (sent as they are) and every kind of answer that carries absolute URLs.
  const spellings = [POST, `/_render/data/../../plog/first-look-sqlite?p=1`, `/plog/./first-look-sqlite`, '/', '/robots.txt', '/feed.xml', '/sitemap.xml'];
  const clean = [POST, '/', '/robots.txt', '/feed.xml', '/sitemap.xml'];

  it('never name a Host that is not allowed, nor hand one to a later clean reader, at the front', async () => {
    for (const path of spellings) {
      const answer = await raw(front.url, path, hostile);
      assert.doesNotMatch(answer.body, /evil\.example/, `${path} with Host: evil.example`);
    }
    for (const path of clean) {
      const answer = await raw(front.url, path);
      assert.equal(answer.status, 200, path);
      assert.doesNotMatch(answer.body, /evil\.example/, `${path} after the hostile requests`);
    }
    assert.equal(canonical((await raw(front.url, POST, hostile)).body), `${front.url}${POST}`, 'a Host not allowed gets the address the front listens on');
  });

  it('never name a Host that is not allowed, nor hand one to a later clean reader, through the edge', async () => {
    const edge = layers.edge.url;
    for (const path of spellings) {
      const answer = await raw(edge, path, { host: 'evil.example' });
      assert.doesNotMatch(answer.body, /evil\.example/, `${path} with Host: evil.example through the edge`);
    }
    for (const path of clean) {
      const answer = await raw(edge, path, { host: new URL(edge).host });
      assert.doesNotMatch(answer.body, /evil\.example/, `${path} through the edge after the hostile requests`);
    }
    assert.equal(canonical((await raw(edge, POST, { host: `localhost:${new URL(edge).port}` })).body), `http://localhost:${new URL(edge).port}${POST}`, 'an allowed host is kept');
  });

  it("never let a client's X-Forwarded-Proto choose the scheme of a page the edge keeps for everyone", async () => {
    const edge = layers.edge.url;
    const host = `localhost:${new URL(edge).port}`;
    // A fresh page URL through the edge: the first request, with the forged header, is the one the edge stores.
    const path = '/plog';
    const forged = await raw(edge, path, { host, 'x-forwarded-proto': 'https' });
    assert.equal(forged.status, 200);
    assert.equal(canonical(forged.body), `http://${host}${path}`, 'the edge tells the front its own scheme');
    assert.equal(canonical((await raw(edge, path, { host })).body), `http://${host}${path}`, 'the next clean reader');
  });

  it('say https when a trusted proxy forwards X-Forwarded-Proto: https, and http when anyone else does', async () => {
    const behindTls = await startFront({ config: { ...layers.config, trustedProxies: ['127.0.0.1'] }, logger, port: 0 });
    others.push(behindTls);
    const host = `localhost:${new URL(behindTls.url).port}`;
    const headers = { host, 'x-forwarded-proto': 'https' };
    // Untrusted first, then trusted, then untrusted again: each answer is made for its own scheme, never shared.
    assert.equal(canonical((await raw(behindTls.url, POST, headers, '127.0.0.2')).body), `http://${host}${POST}`, 'from an untrusted peer');
    const trusted = await raw(behindTls.url, POST, headers, '127.0.0.1');
    assert.equal(canonical(trusted.body), `https://${host}${POST}`, 'from a trusted proxy');
    assert.match(trusted.body, new RegExp(`<meta property="og:url" content="https://${host}${POST}">`));
    assert.equal(canonical((await raw(behindTls.url, POST, headers, '127.0.0.2')).body), `http://${host}${POST}`, 'untrusted again, after a trusted one');
    for (const path of ['/robots.txt', '/feed.xml', '/sitemap.xml']) {
      const urls = absoluteUrls((await raw(behindTls.url, path, headers, '127.0.0.1')).body).filter((url) => url.includes(host));
      assert.ok(urls.length > 0 && urls.every((url) => url.startsWith(`https://${host}/`)), `${path}: ${urls.slice(0, 3).join(' ')}`);
    }
  });

  it('use PUBLIC_URL for every absolute URL whatever the request says', async () => {
    const publicUrl = 'https://blog.example';
    const site = await startFront({ config: { ...layers.config, publicUrl }, logger, port: 0 });
    others.push(site);
    const variants: Record<string, string>[] = [{}, hostile, { host: 'localhost', 'x-forwarded-proto': 'http' }];
    for (const headers of variants) {
      const page = await raw(site.url, POST, headers);
      assert.equal(canonical(page.body), `${publicUrl}${POST}`, JSON.stringify(headers));
      assert.match(page.body, new RegExp(`<meta property="og:url" content="${publicUrl}${POST}">`));
      for (const path of ['/robots.txt', '/feed.xml', '/sitemap.xml']) {
        // Posts link elsewhere too (the demo's mention 127.0.0.1:3000): none may name the front or a host the request did.
        const urls = absoluteUrls((await raw(site.url, path, headers)).body);
        const own = new URL(site.url).host;
        const requestHosts = urls.filter((url) => url.includes(`//${own}/`) || /^https?:\/\/(localhost|evil\.example)[:/]/.test(url));
        assert.deepEqual(requestHosts, [], `${path} ${JSON.stringify(headers)}`);
        assert.ok(urls.some((url) => url.startsWith(`${publicUrl}/`)), `${path} ${JSON.stringify(headers)}: ${urls.slice(0, 3).join(' ')}`);
      }
    }
  });
});
