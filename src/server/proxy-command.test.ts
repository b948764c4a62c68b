import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { loadConfig } from '../config.js';
import { PROXY_DEFAULTS } from '../proxy/index.js';
import { parseProxyArgs, proxyCacheOptions } from './proxy-command.js';

describe('the proxy settings of loadConfig', () => {
  it('takes the Next.js defaults and no upstream when nothing is set', () => {
    const { proxy } = loadConfig({});
    assert.deepEqual(proxy, { ...PROXY_DEFAULTS, bypassPrefixes: [...PROXY_DEFAULTS.bypassPrefixes], upstreams: [] });
  });

  it('reads UPSTREAM_URL as a comma-separated list of origins and the timeouts, prefixes and stale window', () => {
    const { proxy } = loadConfig({
      UPSTREAM_URL: 'http://127.0.0.1:3000/, https://App.example:8443',
      UPSTREAM_CONNECT_TIMEOUT_MS: '100',
      UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '200',
      UPSTREAM_IDLE_TIMEOUT_MS: '300',
      PROXY_BYPASS: 'none',
      PROXY_DATA_ROUTES: '/data/',
      STALE_IF_ERROR_MS: '0',
    });
    assert.deepEqual(proxy, {
      upstreams: ['http://127.0.0.1:3000', 'https://app.example:8443'],
      connectTimeoutMs: 100,
      firstByteTimeoutMs: 200,
      idleTimeoutMs: 300,
      staleIfErrorMs: 0,
      bypassPrefixes: [],
      dataRoutePrefix: '/data/',
    });
  });

  for (const [name, value, message] of [
    ['UPSTREAM_URL', 'http://a/path', "expected UPSTREAM_URL to be a comma-separated list of http(s)://host[:port] URLs without path or query, got 'http://a/path'"],
    ['UPSTREAM_URL', 'http://a?x=1', "got 'http://a?x=1'"],
    ['UPSTREAM_URL', 'ftp://a', "got 'ftp://a'"],
    ['UPSTREAM_URL', 'http://user:pw@a', "got 'http://user:pw@a'"],
    ['UPSTREAM_URL', 'http://exa mple', "got 'http://exa mple'"],
    ['UPSTREAM_CONNECT_TIMEOUT_MS', '0', "expected UPSTREAM_CONNECT_TIMEOUT_MS to be a positive integer, got '0'"],
    ['UPSTREAM_IDLE_TIMEOUT_MS', '1e3', "got '1e3'"],
    ['PROXY_BYPASS', 'api/', "expected PROXY_BYPASS to be 'none' or a comma-separated list of paths starting with '/', got 'api/'"],
    ['PROXY_DATA_ROUTES', '/a?b', "got '/a?b'"],
    ['STALE_IF_ERROR_MS', '-1', "expected STALE_IF_ERROR_MS to be a whole number of 0 or more, got '-1'"],
  ] as const) {
    it(`refuses ${name}=${value} naming the variable and the value`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (error: Error) => error.message.includes(message));
    });
  }

  it('reads an internationalised host as its ASCII (punycode) form', () => {
    assert.deepEqual(loadConfig({ UPSTREAM_URL: 'http://例え.jp:8080' }).proxy.upstreams, ['http://xn--r8jz45g.jp:8080']);
  });

  it('either reads or refuses any UPSTREAM_URL, never anything else (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (value) => {
        try {
          for (const origin of loadConfig({ UPSTREAM_URL: value }).proxy.upstreams) assert.match(origin, /^https?:\/\/[^/?#]+$/);
        } catch (error) {
          assert.match((error as Error).message, /^expected UPSTREAM_URL to be/);
        }
      }),
    );
  });
});

describe('parseProxyArgs', () => {
  const config = loadConfig({ UPSTREAM_URL: 'http://127.0.0.1:3000' });

  it('takes repeated --upstream over UPSTREAM_URL, and --workers', () => {
    assert.deepEqual(parseProxyArgs(['--upstream', 'http://10.0.0.5:3000', '--upstream=http://10.0.0.6:3000', '--workers', '2'], config), {
      upstreams: ['http://10.0.0.5:3000', 'http://10.0.0.6:3000'],
      workers: 2,
    });
    assert.deepEqual(parseProxyArgs([], config), { upstreams: ['http://127.0.0.1:3000'], workers: 1 });
  });

  for (const [args, message] of [
    [['--upstream', 'http://a/b'], "expected --upstream to be"],
    [['--upstream'], "--upstream"],
    [['--workers', '0'], "--workers expects a whole number from 1 to 64, got '0'"],
    [['--bogus'], "Unknown option '--bogus'"],
    [['extra'], 'Unexpected argument'],
  ] as const) {
    it(`refuses ${args.join(' ')} with a message and the usage`, () => {
      assert.throws(() => parseProxyArgs(args, config), (error: Error) => error.message.includes(message));
    });
  }

  it('asks for an upstream when neither --upstream nor UPSTREAM_URL names one', () => {
    assert.throws(() => parseProxyArgs([], loadConfig({})), /--upstream http:\/\/host:port or UPSTREAM_URL/);
  });
});

describe('proxyCacheOptions', () => {
  it('honours Cache-Control, reads and hides both key headers, never stores private or cookie answers, and purges Next.js data routes and _rsc variants', () => {
    const options = proxyCacheOptions(loadConfig({}));
    assert.equal(options.lifetimes, 'honour');
    assert.deepEqual(options.keyHeaders, ['surrogate-key', 'cache-tag']);
    assert.equal(options.hideKeyHeaders, true);
    assert.equal(options.storePrivate, false);
    assert.equal(options.storeSetCookie, false);
    assert.equal(options.dataRoutePrefix, '/_next/data/');
    assert.equal(options.dataRouteLocale, false);
    assert.equal(options.purgeQueryVariants, true);
    assert.deepEqual(options.bypassPrefixes, ['/_next/image', '/api/']);
  });
});
