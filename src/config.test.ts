import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, parseRateLimit } from './config.js';
import { ConfigError } from './errors.js';
import { SHARED_TIER_DEFAULTS } from './fleet/index.js';
import { SITE_DEFAULTS } from './renderer/site.js';

describe('loadConfig', () => {
  it('returns the documented defaults when the environment is empty', () => {
    const config = loadConfig({}, '/srv/site');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.equal(config.originPort, 4000);
    assert.equal(config.edgePort, 8080);
    assert.equal(config.dataDir, '/srv/site/data');
    assert.equal(config.apiBase, 'http://127.0.0.1:4000');
    assert.equal(config.originTimeoutMs, 10_000);
    assert.equal(config.originMaxAnswerBytes, 4 * 1024 * 1024);
    assert.deepEqual(config.purgeUrls, ['http://127.0.0.1:3000/__purge__']);
    assert.deepEqual(config.allowedHosts, ['localhost', '127.0.0.1']);
    assert.deepEqual(config.siteLocales, ['en-US']);
    assert.equal(config.cacheKey, 'url');
    assert.equal(config.cacheVariantCookie, 'display-mode');
    assert.equal(config.cacheVariantHeader, 'accept-language');
    assert.equal(config.cacheMaxEntries, 1000);
    assert.equal(config.cacheMaxBytes, undefined);
    assert.equal(config.searchUrl, 'sqlite:/srv/site/data/search.sqlite');
    assert.equal(config.searchPrefix, 'site_docs');
    assert.deepEqual(config.searchRateLimit, { max: 25, windowMs: 60_000 });
    assert.deepEqual(config.trustedProxies, ['loopback']);
    assert.deepEqual(config.commentRateLimit, { max: 5, windowMs: 60_000 });
    assert.equal(config.purgeSecret, undefined);
    assert.equal(config.shutdownTimeoutMs, 10_000);
    assert.deepEqual(config.site, SITE_DEFAULTS);
  });

  it('reads the site identity when SITE_NAME, SITE_DESCRIPTION and SITE_FOOTER are set', () => {
    const config = loadConfig({ SITE_NAME: ' Field notes ', SITE_DESCRIPTION: 'What I learnt.', SITE_FOOTER: '© Ann' });
    assert.deepEqual(config.site, { name: 'Field notes', description: 'What I learnt.', footer: '© Ann' });
  });

  it('names SITE_NAME when it is too long or holds a control character', () => {
    assert.throws(() => loadConfig({ SITE_NAME: 'x'.repeat(101) }), /expected SITE_NAME to be one line of at most 100 characters/);
    assert.throws(() => loadConfig({ SITE_FOOTER: 'a\u0007b' }), /expected SITE_FOOTER to be one line of at most 300 characters/);
  });

  it('reads SITE_LOCALES and names it with its value when a locale is malformed, repeated or none is given', () => {
    assert.deepEqual(loadConfig({ SITE_LOCALES: 'en-US, zh-CN,ja' }).siteLocales, ['en-US', 'zh-CN', 'ja']);
    for (const value of [' , ', 'en-US,en-US', 'zh_CN', 'en-US,../x', '中文', 'EN-us']) {
      assert.throws(() => loadConfig({ SITE_LOCALES: value }), /expected SITE_LOCALES to be distinct locales such as en-US,zh-CN,ja/, JSON.stringify(value));
    }
  });

  it('names SHUTDOWN_TIMEOUT_MS when it is not a positive whole number of milliseconds', () => {
    assert.equal(loadConfig({ SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs, 2500);
    assert.throws(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: 'abc' }), {
      name: 'ConfigError',
      message: "expected SHUTDOWN_TIMEOUT_MS to be a positive integer, got 'abc'",
    });
    assert.throws(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '0' }), /expected SHUTDOWN_TIMEOUT_MS to be a positive integer, got '0'/);
  });

  it('names COMMENT_RATE_LIMIT when its rate is malformed', () => {
    assert.deepEqual(loadConfig({ COMMENT_RATE_LIMIT: '2/second' }).commentRateLimit, { max: 2, windowMs: 1000 });
    assert.throws(() => loadConfig({ COMMENT_RATE_LIMIT: 'lots' }), /expected COMMENT_RATE_LIMIT to be a rate/);
  });

  it('reads the image upload bounds, naming the variable when one is malformed', () => {
    assert.deepEqual(loadConfig({}).images, { maxBytes: 20 * 1024 * 1024, maxPixels: 40_000_000 });
    assert.deepEqual(loadConfig({ IMAGE_MAX_BYTES: '1048576', IMAGE_MAX_PIXELS: '1000000' }).images, { maxBytes: 1_048_576, maxPixels: 1_000_000 });
    for (const [name, value] of [['IMAGE_MAX_BYTES', '10MB'], ['IMAGE_MAX_PIXELS', '0'], ['IMAGE_MAX_BYTES', '-1'], ['IMAGE_MAX_PIXELS', '１０']]) {
      assert.throws(() => loadConfig({ [name!]: value }), new RegExp(`expected ${name}`), `${name}=${value}`);
    }
  });

  it("reads the desk's login limits and session lifetimes, naming the variable when one is malformed", () => {
    const desk = loadConfig({ DESK_LOGIN_RATE_LIMIT: '5/minute', DESK_LOGIN_NAME_RATE_LIMIT: '3/hour', DESK_SESSION_IDLE_MS: '60000', DESK_SESSION_MAX_MS: '3600000' }).desk;
    assert.deepEqual(desk, { loginRateLimit: { max: 5, windowMs: 60_000 }, loginNameRateLimit: { max: 3, windowMs: 3_600_000 }, sessionLifetime: { idleMs: 60_000, absoluteMs: 3_600_000 } });
    assert.equal(loadConfig({}).desk.loginNameRateLimit.max, 10);
    assert.throws(() => loadConfig({ DESK_LOGIN_RATE_LIMIT: 'many' }), /expected DESK_LOGIN_RATE_LIMIT to be a rate/);
    assert.throws(() => loadConfig({ DESK_SESSION_IDLE_MS: '0' }), /expected DESK_SESSION_IDLE_MS to be a positive integer, got '0'/);
  });

  it('names the variable and the value when a port is not a number', () => {
    assert.throws(() => loadConfig({ PORT: 'abc' }), {
      name: 'ConfigError',
      message: "expected PORT to be a port number, got 'abc'",
    });
    assert.throws(() => loadConfig({ ORIGIN_PORT: '70000' }), ConfigError);
  });

  it('rejects an unknown cache key policy when CACHE_KEY is misspelt', () => {
    assert.throws(() => loadConfig({ CACHE_KEY: 'urls' }), /expected CACHE_KEY to be one of url, path/);
  });

  it('reads the page cache eviction policy, lru when CACHE_EVICTION is unset, and rejects an unknown one', () => {
    assert.equal(loadConfig({}).cacheEviction, 'lru');
    assert.equal(loadConfig({ CACHE_EVICTION: 's3-fifo' }).cacheEviction, 's3-fifo');
    for (const value of ['LRU', 'sieve', 'w tinylfu', 'ｓ３-fifo', 'lru'.repeat(1000)]) {
      assert.throws(() => loadConfig({ CACHE_EVICTION: value }), /expected CACHE_EVICTION to be one of lru, s3-fifo, w-tinylfu, got '/);
    }
  });

  it('reads the path+variant cookie and header names and rejects names that are not tokens', () => {
    const config = loadConfig({ CACHE_VARIANT_COOKIE: 'theme', CACHE_VARIANT_HEADER: 'X-Device' });
    assert.equal(config.cacheVariantCookie, 'theme');
    assert.equal(config.cacheVariantHeader, 'x-device');
    assert.throws(() => loadConfig({ CACHE_VARIANT_COOKIE: 'a b' }), {
      message: "expected CACHE_VARIANT_COOKIE to be a header or cookie name, got 'a b'",
    });
    assert.throws(() => loadConfig({ CACHE_VARIANT_HEADER: 'caf\u00e9' }), /CACHE_VARIANT_HEADER/);
  });

  it('rejects a list entry that is not a URL when PURGE_URLS is malformed', () => {
    assert.throws(() => loadConfig({ PURGE_URLS: 'http://a:3000/__purge__, ftp://b' }), /PURGE_URLS/);
    assert.deepEqual(loadConfig({ PURGE_URLS: 'http://a:3000/__purge__, http://b:3000/__purge__ ,' }).purgeUrls, [
      'http://a:3000/__purge__',
      'http://b:3000/__purge__',
    ]);
  });

  it('accepts an Elasticsearch address when SEARCH_URL is http(s)', () => {
    assert.equal(loadConfig({ SEARCH_URL: 'https://u:p@es:9200' }).searchUrl, 'https://u:p@es:9200');
    assert.throws(() => loadConfig({ SEARCH_URL: 'es:9200' }), /SEARCH_URL/);
  });
});

describe('loadConfig for operations', () => {
  it('defaults to sampled request logs, no drain delay and no metrics token of its own when none is set', () => {
    const config = loadConfig({});
    assert.deepEqual([config.logRequests, config.drainDelayMs, config.metricsToken], ['sampled', 0, undefined]);
  });

  it('reads CACHE_COMPRESS and CACHE_COMPRESS_MIN_BYTES, compression on by default', () => {
    assert.deepEqual([loadConfig({}).cacheCompress, loadConfig({}).cacheCompressMinBytes], [true, 1024]);
    const config = loadConfig({ CACHE_COMPRESS: 'off', CACHE_COMPRESS_MIN_BYTES: '4096' });
    assert.deepEqual([config.cacheCompress, config.cacheCompressMinBytes], [false, 4096]);
    assert.throws(() => loadConfig({ CACHE_COMPRESS: 'yes' }), { message: "expected CACHE_COMPRESS to be one of on, off, got 'yes'" });
    assert.throws(() => loadConfig({ CACHE_COMPRESS_MIN_BYTES: '0' }), /CACHE_COMPRESS_MIN_BYTES/);
  });

  it('reads LOG_REQUESTS, DRAIN_DELAY_MS and METRICS_TOKEN when they are set', () => {
    const config = loadConfig({ LOG_REQUESTS: 'all', DRAIN_DELAY_MS: '5000', METRICS_TOKEN: 'scrape' });
    assert.deepEqual([config.logRequests, config.drainDelayMs, config.metricsToken], ['all', 5000, 'scrape']);
  });

  it('names the variable and the value when LOG_REQUESTS or DRAIN_DELAY_MS is bad', () => {
    assert.throws(() => loadConfig({ LOG_REQUESTS: 'some' }), { message: "expected LOG_REQUESTS to be one of off, errors, sampled, all, got 'some'" });
    assert.throws(() => loadConfig({ DRAIN_DELAY_MS: '-1' }), { message: "expected DRAIN_DELAY_MS to be a whole number of 0 or more, got '-1'" });
    assert.throws(() => loadConfig({ DRAIN_DELAY_MS: 'soon' }), { message: "expected DRAIN_DELAY_MS to be a whole number of 0 or more, got 'soon'" });
  });
});

describe('TRUSTED_PROXIES', () => {
  it('accepts addresses, subnets, loopback and none', () => {
    assert.deepEqual(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1 ,192.0.2.7,loopback' }).trustedProxies, ['10.0.0.0/8', '::1', '192.0.2.7', 'loopback']);
    assert.deepEqual(loadConfig({ TRUSTED_PROXIES: 'none' }).trustedProxies, []);
  });

  it('names the bad entry when one is not an address or subnet', () => {
    assert.throws(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.local' }), /expected TRUSTED_PROXIES .* got 'proxy\.local'/);
    assert.throws(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/40' }), /TRUSTED_PROXIES/);
    assert.throws(() => loadConfig({ TRUSTED_PROXIES: ',' }), /TRUSTED_PROXIES/);
  });
});

describe('loadConfig songs', () => {
  it('returns the documented song provider defaults when the environment is empty', () => {
    assert.deepEqual(loadConfig({}).songs, {
      itunesApiBase: 'https://itunes.apple.com',
      amazon: { credentials: undefined, host: 'webservices.amazon.com', baseUrl: 'https://webservices.amazon.com', region: 'us-east-1', marketplace: 'www.amazon.com' },
      providerTimeoutMs: 5000,
    });
  });

  it('reads the Amazon keys, host, region and a stand-in base URL when they are set', () => {
    const { amazon } = loadConfig({
      AMAZON_ACCESS_KEY: 'AK',
      AMAZON_SECRET_KEY: 'SK',
      AMAZON_PARTNER_TAG: 'site-21',
      AMAZON_PAAPI_HOST: 'webservices.amazon.co.uk',
      AMAZON_REGION: 'eu-west-1',
      AMAZON_MARKETPLACE: 'www.amazon.co.uk',
    }).songs;
    assert.deepEqual(amazon, {
      credentials: { accessKey: 'AK', secretKey: 'SK', partnerTag: 'site-21' },
      host: 'webservices.amazon.co.uk',
      baseUrl: 'https://webservices.amazon.co.uk',
      region: 'eu-west-1',
      marketplace: 'www.amazon.co.uk',
    });
    assert.equal(loadConfig({ AMAZON_PAAPI_BASE: 'http://127.0.0.1:9999/' }).songs.amazon.baseUrl, 'http://127.0.0.1:9999');
  });

  it('refuses Amazon keys given only in part', () => {
    assert.throws(() => loadConfig({ AMAZON_ACCESS_KEY: 'AK' }), /AMAZON_ACCESS_KEY, AMAZON_SECRET_KEY and AMAZON_PARTNER_TAG to be set together/);
  });

  it('names the variable when a song setting is malformed', () => {
    assert.throws(() => loadConfig({ ITUNES_API_BASE: 'itunes.apple.com' }), /ITUNES_API_BASE/);
    assert.throws(() => loadConfig({ AMAZON_PAAPI_HOST: 'https://webservices.amazon.com' }), /AMAZON_PAAPI_HOST to be a host name/);
    assert.throws(() => loadConfig({ AMAZON_PAAPI_BASE: 'ftp://x' }), /AMAZON_PAAPI_BASE/);
    assert.throws(() => loadConfig({ AMAZON_REGION: 'mars' }), /AMAZON_REGION to be an AWS region/);
    assert.throws(() => loadConfig({ SONG_PROVIDER_TIMEOUT_MS: '5s' }), /SONG_PROVIDER_TIMEOUT_MS to be a positive integer/);
  });
});

describe('parseRateLimit', () => {
  it('parses count per window when given second, minute or hour', () => {
    assert.deepEqual(parseRateLimit('R', '5/second'), { max: 5, windowMs: 1000 });
    assert.deepEqual(parseRateLimit('R', '100 / hour'), { max: 100, windowMs: 3_600_000 });
  });

  it('throws a clear message when the rate is malformed', () => {
    for (const bad of ['0/minute', '25', 'ten/minute', '25/day', '']) {
      assert.throws(() => parseRateLimit('R', bad), /expected R to be a rate such as '25\/minute'/);
    }
  });
  it('turns the front worker header on only when FRONT_WORKER_HEADER is on', () => {
    assert.equal(loadConfig({}).frontWorkerHeader, false);
    assert.equal(loadConfig({ FRONT_WORKER_HEADER: 'on' }).frontWorkerHeader, true);
    assert.throws(() => loadConfig({ FRONT_WORKER_HEADER: 'yes' }), /FRONT_WORKER_HEADER/);
  });
});

describe('loadConfig for the edge', () => {
  it('points the edge at the local front and runs nginx from PATH when nothing is set', () => {
    const config = loadConfig({}, '/srv/site');
    assert.deepEqual(config.edgeUpstreams, ['http://127.0.0.1:3000']);
    assert.equal(config.nginxBin, 'nginx');
  });

  it('reaches a front listening on every address through the loopback address', () => {
    assert.deepEqual(loadConfig({ HOST: '0.0.0.0', PORT: '3100' }).edgeUpstreams, ['http://127.0.0.1:3100']);
    assert.deepEqual(loadConfig({ HOST: '::', PORT: '3100' }).edgeUpstreams, ['http://[::1]:3100']);
    assert.deepEqual(loadConfig({ HOST: '::1' }).edgeUpstreams, ['http://[::1]:3000']);
  });

  it('takes a list of fronts when EDGE_UPSTREAM names several', () => {
    assert.deepEqual(loadConfig({ EDGE_UPSTREAM: 'http://10.0.0.1:3000, http://front-2:3000/' }).edgeUpstreams, [
      'http://10.0.0.1:3000',
      'http://front-2:3000',
    ]);
    assert.equal(loadConfig({ NGINX_BIN: '/opt/nginx/sbin/nginx' }).nginxBin, '/opt/nginx/sbin/nginx');
  });

  it('rejects an EDGE_UPSTREAM that is not http://host:port', () => {
    for (const bad of ['front:3000', 'https://front:3000', 'http://front:3000/app', 'http://u:p@front:3000', 'http://front:3000/?a=1', ',']) {
      assert.throws(() => loadConfig({ EDGE_UPSTREAM: bad }), /EDGE_UPSTREAM/, bad);
    }
  });
});

describe('EDGE_REFRESH_SECRET and PUBLIC_URL', () => {
  it('leaves both unset when the environment has neither', () => {
    const config = loadConfig({});
    assert.equal(config.edgeRefreshSecret, undefined);
    assert.equal(config.publicUrl, undefined);
  });

  it('reads a URL-safe secret and a public origin when they are set', () => {
    const config = loadConfig({ EDGE_REFRESH_SECRET: 'abcdefghijklmnop-_.~+/=', PUBLIC_URL: 'https://Example.com/' });
    assert.equal(config.edgeRefreshSecret, 'abcdefghijklmnop-_.~+/=');
    assert.equal(config.publicUrl, 'https://example.com');
  });

  it('names EDGE_REFRESH_SECRET without echoing it when it is short or holds characters nginx cannot take', () => {
    for (const bad of ['short', 'sixteen chars ok?', 'abcdefghijklmnop"', 'abcdefghijklmnop$x']) {
      assert.throws(
        () => loadConfig({ EDGE_REFRESH_SECRET: bad }),
        (error: unknown) => error instanceof ConfigError && error.message.includes('EDGE_REFRESH_SECRET') && !error.message.includes(bad),
      );
    }
  });

  it('names PUBLIC_URL when it has a path, a query or another scheme', () => {
    for (const bad of ['example.com', 'ftp://example.com', 'https://example.com/blog', 'https://example.com/?a=1', 'https://u:p@example.com']) {
      assert.throws(() => loadConfig({ PUBLIC_URL: bad }), /PUBLIC_URL/, bad);
    }
  });

  it('reads the shared second tier, on by default with REDIS_URL, and names each bad setting', () => {
    assert.deepEqual(loadConfig({ REDIS_URL: 'redis://r' }).fleet?.secondTier, SHARED_TIER_DEFAULTS);
    assert.equal(loadConfig({ REDIS_URL: 'redis://r', FLEET_SECOND_TIER: 'off' }).fleet?.secondTier, undefined);
    assert.deepEqual(
      loadConfig({ REDIS_URL: 'redis://r', FLEET_TIER_MAX_BYTES: '1000000', FLEET_TIER_LOCK_MS: '5000', FLEET_TIER_LOOKUP_TIMEOUT_MS: '100' }).fleet?.secondTier,
      { maxBytes: 1_000_000, maxCopyBytes: 1_000_000, lockMs: 5_000, lookupTimeoutMs: 100 },
    );
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://r', FLEET_SECOND_TIER: 'yes' }), /expected FLEET_SECOND_TIER to be one of on, off, got 'yes'$/);
    for (const name of ['FLEET_TIER_MAX_BYTES', 'FLEET_TIER_MAX_COPY_BYTES', 'FLEET_TIER_LOCK_MS', 'FLEET_TIER_LOOKUP_TIMEOUT_MS']) {
      for (const bad of ['0', '-1', '1.5', 'lots', '１２', '9'.repeat(400)]) {
        assert.throws(() => loadConfig({ REDIS_URL: 'redis://r', [name]: bad }), (error: unknown) => error instanceof ConfigError && error.message.startsWith(`expected ${name} to be`), `${name}=${bad}`);
      }
    }
    assert.throws(() => loadConfig({ REDIS_URL: 'redis://r', FLEET_TIER_MAX_BYTES: '100', FLEET_TIER_MAX_COPY_BYTES: '101' }), /expected FLEET_TIER_MAX_COPY_BYTES to be at most FLEET_TIER_MAX_BYTES \(100\), got '101'/);
  });
});
