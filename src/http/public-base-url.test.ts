import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { publicBaseMemo, publicBaseUrl, type PublicRequest } from './public-base-url.js';

const ALLOWED = ['localhost', '127.0.0.1', 'blog.example', 'admin.example:8443', '::1'];

function request(headers: Record<string, string | string[]>, socket: PublicRequest['socket'] = {}): PublicRequest {
  return { headers, socket: { localAddress: '127.0.0.1', localPort: 3000, ...socket } };
}

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
// The last label starts with a letter: an all-numeric name is an IPv4 address to URL parsers ('0' is 0.0.0.0).
/** A host name URL accepts: a label starting `xn--` must be valid punycode (`xn--0` is not, and is no host). */
const domain = fc
  .tuple(fc.array(label, { maxLength: 3 }), fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/))
  .map(([labels, last]) => [...labels, last].join('.'))
  .filter((name) => URL.canParse(`http://${name}/`));
const port = fc.integer({ min: 1, max: 65535 });
const randomCase = (text: string) =>
  fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) =>
    [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''),
  );

describe('publicBaseUrl', () => {
  it('uses the forwarded host when it is allowed, keeping its port', () => {
    assert.equal(publicBaseUrl(request({ host: '127.0.0.1:3000', 'x-forwarded-host': 'localhost:8080' }), ALLOWED), 'http://localhost:8080');
    assert.equal(publicBaseUrl(request({ host: '127.0.0.1:3000', 'x-forwarded-host': 'Blog.Example' }), ALLOWED), 'http://blog.example');
    assert.equal(publicBaseUrl(request({ host: 'x', 'x-forwarded-host': '[::1]:8080' }), ALLOWED), 'http://[::1]:8080');
  });

  it("uses the request's own host when the forwarded host is not allowed and its own is", () => {
    assert.equal(publicBaseUrl(request({ host: '127.0.0.1:3000', 'x-forwarded-host': 'evil.example' }), ALLOWED), 'http://127.0.0.1:3000');
    assert.equal(publicBaseUrl(request({ host: 'localhost:3000' }), ALLOWED), 'http://localhost:3000');
  });

  it('uses the address the request arrived on when neither host is allowed', () => {
    assert.equal(publicBaseUrl(request({ host: 'evil.example' }), ALLOWED), 'http://127.0.0.1:3000');
    assert.equal(publicBaseUrl(request({ host: 'evil.example', 'x-forwarded-host': 'evil.example' }), ALLOWED), 'http://127.0.0.1:3000');
    assert.equal(publicBaseUrl(request({ host: 'localhost:3000', 'x-forwarded-host': 'localhost:8080' }), []), 'http://127.0.0.1:3000');
  });

  it('allows only the listed port when an allowed entry has one', () => {
    assert.equal(publicBaseUrl(request({ host: 'h', 'x-forwarded-host': 'admin.example:8443' }), ALLOWED), 'http://admin.example:8443');
    assert.equal(publicBaseUrl(request({ host: 'h', 'x-forwarded-host': 'admin.example:8080' }), ALLOWED), 'http://127.0.0.1:3000');
    assert.equal(publicBaseUrl(request({ host: 'admin.example' }), ALLOWED), 'http://127.0.0.1:3000');
  });

  it('answers https when the connection itself is TLS', () => {
    assert.equal(publicBaseUrl(request({ host: 'blog.example' }, { encrypted: true }), ALLOWED), 'https://blog.example');
    assert.equal(publicBaseUrl(request({ host: 'blog.example:443' }, { encrypted: true }), ALLOWED), 'https://blog.example');
  });

  it('believes X-Forwarded-Proto from a trusted proxy only', () => {
    const trustedProxy = (address: string) => address === '10.0.0.1';
    const forwarded = { host: 'blog.example:443', 'x-forwarded-proto': 'https' };
    assert.equal(publicBaseUrl(request(forwarded, { remoteAddress: '10.0.0.1' }), ALLOWED, { trustedProxy }), 'https://blog.example');
    assert.equal(publicBaseUrl(request({ ...forwarded, 'x-forwarded-proto': 'HTTPS, http' }, { remoteAddress: '10.0.0.1' }), ALLOWED, { trustedProxy }), 'https://blog.example');
    assert.equal(publicBaseUrl(request(forwarded, { remoteAddress: '203.0.113.9' }), ALLOWED, { trustedProxy }), 'http://blog.example:443');
    assert.equal(publicBaseUrl(request(forwarded, { remoteAddress: '10.0.0.1' }), ALLOWED), 'http://blog.example:443', 'no proxy trusted');
    assert.equal(publicBaseUrl(request({ ...forwarded, 'x-forwarded-proto': 'gopher' }, { remoteAddress: '10.0.0.1' }), ALLOWED, { trustedProxy }), 'http://blog.example:443');
    assert.equal(publicBaseUrl(request({ host: 'blog.example', 'x-forwarded-proto': 'http' }, { encrypted: true, remoteAddress: '10.0.0.1' }), ALLOWED, { trustedProxy }), 'https://blog.example');
  });

  it('answers PUBLIC_URL whatever the request says', () => {
    const publicUrl = 'https://www.blog.example';
    const hostile = request({ host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' }, { remoteAddress: '127.0.0.1' });
    assert.equal(publicBaseUrl(hostile, ALLOWED, { publicUrl, trustedProxy: () => true }), publicUrl);
    assert.equal(publicBaseUrl(request({ host: 'localhost:8080' }), ALLOWED, { publicUrl }), publicUrl);
  });

  it('takes the first of several forwarded hosts when proxies appended theirs', () => {
    assert.equal(publicBaseUrl(request({ host: 'h', 'x-forwarded-host': 'blog.example, proxy.internal' }), ALLOWED), 'http://blog.example');
    assert.equal(publicBaseUrl(request({ host: 'h', 'x-forwarded-host': ['blog.example', 'localhost'] }), ALLOWED), 'http://blog.example');
    assert.equal(publicBaseUrl(request({ host: 'h', 'x-forwarded-host': 'evil.example, blog.example' }), ALLOWED), 'http://127.0.0.1:3000');
  });

  it('never echoes a hostile forwarded host or Host header when they are more than host:port', () => {
    const hostile = [
      'localhost/evil',
      'localhost@evil.example',
      'evil.example#localhost',
      'localhost:8080/../x',
      'localhost:99999',
      'localhost:-1',
      'localhost:abc',
      'local host',
      'localhost\\evil',
      'localhost?x',
      '%6cocalhost',
      '"><script>',
      '',
      '::1',
    ];
    for (const value of hostile) {
      assert.equal(publicBaseUrl(request({ host: 'blog.example', 'x-forwarded-host': value }), ALLOWED), 'http://blog.example', value);
      assert.equal(publicBaseUrl(request({ host: value }), ALLOWED), 'http://127.0.0.1:3000', value);
    }
  });

  it('falls back to the address the request arrived on when there is no Host header', () => {
    assert.equal(publicBaseUrl(request({}), ALLOWED), 'http://127.0.0.1:3000');
    assert.equal(publicBaseUrl({ headers: {}, socket: { localAddress: '::1', localPort: 8080 } }, ALLOWED), 'http://[::1]:8080');
    assert.equal(publicBaseUrl({ headers: {}, socket: {} }, ALLOWED), 'http://localhost');
  });

  it('compares unicode host names in their punycode form when allowed hosts are unicode', () => {
    assert.equal(publicBaseUrl(request({ host: 'h', 'x-forwarded-host': 'xn--bcher-kva.example' }), ['bücher.example']), 'http://xn--bcher-kva.example');
    assert.equal(publicBaseUrl(request({ host: 'h', 'x-forwarded-host': 'bücher.example' }), ['BÜCHER.example']), 'http://xn--bcher-kva.example');
    assert.equal(publicBaseUrl(request({ host: 'h.example', 'x-forwarded-host': 'xn--0.a0' }), ['xn--0.a0', 'h.example']), 'http://h.example', 'invalid punycode is no host');
  });

  it('returns the allowed forwarded host in lower case whatever its case or port (property)', () => {
    const cases = fc
      .tuple(domain, fc.option(port, { nil: undefined }), fc.boolean())
      .chain(([name, forwardedPort, secure]) => {
        const value = forwardedPort === undefined ? name : `${name}:${forwardedPort}`;
        return randomCase(value).map((cased) => ({ name, forwardedPort, secure, value, cased }));
      });
    fc.assert(
      fc.property(cases, ({ name, forwardedPort, secure, value, cased }) => {
        const scheme = secure ? 'https' : 'http';
        const defaultPort = secure ? 443 : 80;
        const expected = forwardedPort === undefined || forwardedPort === defaultPort ? `${scheme}://${name}` : `${scheme}://${value}`;
        const headers = { host: 'own.example', 'x-forwarded-host': cased };
        assert.equal(publicBaseUrl(request(headers, { encrypted: secure }), [name.toUpperCase()]), expected);
      }),
    );
  });

  it('ignores any forwarded host or Host header that is not allowed (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.oneof(fc.string({ unit: 'binary' }), domain), (forwarded, host) => {
        fc.pre(!/^\s*(localhost|127\.0\.0\.1|blog\.example|admin\.example:8443|\[::1\])/i.test(forwarded));
        fc.pre(!/^\s*(localhost|127\.0\.0\.1|blog\.example|admin\.example:8443|\[::1\])/i.test(host));
        assert.equal(publicBaseUrl(request({ host, 'x-forwarded-host': forwarded }), ALLOWED), 'http://127.0.0.1:3000');
      }),
      { numRuns: 500 },
    );
  });

  it('always returns a bare origin, whatever the headers (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), fc.boolean(), (host, forwarded, secure) => {
        const result = publicBaseUrl(request({ host, 'x-forwarded-host': forwarded }, { encrypted: secure }), [...ALLOWED, forwarded]);
        const url = new URL(result);
        assert.equal(url.origin, result, `${JSON.stringify({ host, forwarded })} gave ${result}`);
        assert.equal(url.protocol, secure ? 'https:' : 'http:');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('publicBaseMemo', () => {
  const hostValue = fc.oneof(
    fc.constantFrom(undefined, '', 'localhost', 'localhost:3000', 'BLOG.example', 'blog.example:443', 'admin.example:8443', '[::1]:8080', 'evil.example', 'a b', '5:x'),
    fc.string({ unit: 'binary', maxLength: 12 }),
  );
  const forwardedValue = fc.oneof(hostValue, fc.array(fc.constantFrom('blog.example', 'localhost', 'evil.example'), { minLength: 1, maxLength: 2 }));
  /** A few values of each input, which the requests of a sequence mix: so that many share some inputs and differ in others. */
  const few = <T>(values: fc.Arbitrary<T>) => fc.array(values, { minLength: 1, maxLength: 3 });
  const pools = fc.record({
    host: few(hostValue),
    forwarded: few(forwardedValue),
    proto: few(fc.constantFrom(undefined, 'https', 'http', 'HTTPS, http', 'gopher')),
    encrypted: few(fc.constantFrom(undefined, false, true)),
    remoteAddress: few(fc.constantFrom(undefined, '10.0.0.1', '203.0.113.9')),
    localAddress: few(fc.constantFrom(undefined, '127.0.0.1', '::1', '10.0.0.2')),
    localPort: few(fc.constantFrom(undefined, 80, 443, 3000, 8443)),
    sockets: fc.integer({ min: 1, max: 3 }),
  });
  const pick = <T>(values: readonly T[], index = 0): T => values[index % values.length]!;
  // Requests share connections (socket objects), whose fields may change between them.
  const sequences = pools.chain((pool) =>
    fc.array(fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), { maxLength: 60 }).map((picks) => {
      const sockets: Array<PublicRequest['socket']> = Array.from({ length: pool.sockets }, () => ({}));
      return picks.map(([host, forwarded, proto, encrypted, remoteAddress, localAddress, localPort, socketIndex]) => {
        const headers: Record<string, string | string[]> = {};
        const values = { host: pick(pool.host, host), 'x-forwarded-host': pick(pool.forwarded, forwarded), 'x-forwarded-proto': pick(pool.proto, proto) };
        for (const [name, value] of Object.entries(values)) if (value !== undefined) headers[name] = value;
        const fields = {
          encrypted: pick(pool.encrypted, encrypted),
          remoteAddress: pick(pool.remoteAddress, remoteAddress),
          localAddress: pick(pool.localAddress, localAddress),
          localPort: pick(pool.localPort, localPort),
        };
        return { headers, socket: pick(sockets, socketIndex), fields };
      });
    }),
  );
  const trustedProxy = (address: string) => address === '10.0.0.1';

  it('answers what publicBaseUrl answers for every request of a sequence, repeats included (property)', () => {
    fc.assert(
      fc.property(sequences, fc.option(fc.constant('https://www.blog.example'), { nil: undefined }), (requests, publicUrl) => {
        const options = { trustedProxy, publicUrl };
        const memo = publicBaseMemo(ALLOWED, options);
        for (const { headers, socket, fields } of requests) {
          const request = { headers, socket: Object.assign(socket, fields) };
          const expected = publicBaseUrl(request, ALLOWED, options);
          assert.equal(memo(request), expected, JSON.stringify(request));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('answers each request of one connection for its own Host when the Host changes', () => {
    const memo = publicBaseMemo(ALLOWED);
    const socket = { localAddress: '127.0.0.1', localPort: 3000 };
    for (const host of ['localhost:1', 'blog.example', 'evil.example', 'blog.example', 'localhost:1']) {
      assert.equal(memo({ headers: { host }, socket }), publicBaseUrl({ headers: { host }, socket }, ALLOWED), host);
    }
  });
});
