import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DATA_PREFIX } from '../renderer/routes.js';
import { formatHostPort } from './host-port.js';
import { acceptsCoding, EDGE_CACHE_SETTINGS, renderNginxConfig, type EdgeConfigOptions } from './nginx-config.js';

const base: EdgeConfigOptions = {
  edgeDir: '/srv/site/data/edge',
  listen: { host: '127.0.0.1', port: 8080 },
  upstreams: [{ host: '127.0.0.1', port: 3000 }],
};

/** The text of the `location <path> { ... }` block. */
function location(config: string, path: string): string {
  const start = config.indexOf(`location ${path} {`);
  assert.notEqual(start, -1, `no location ${path}`);
  return config.slice(start, config.indexOf('}', start));
}

function directiveLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

describe('renderNginxConfig', () => {
  it('writes the spec settings of the edge cache when given the defaults', () => {
    const config = renderNginxConfig(base);
    const text = directiveLines(config).join(' ');
    assert.match(
      text,
      /proxy_cache_path "\/srv\/site\/data\/edge\/cache" levels=1:2 keys_zone=sitestack_edge:10m max_size=1g inactive=24h use_temp_path=off;/,
    );
    assert.match(text, /proxy_cache sitestack_edge;/);
    assert.match(text, /proxy_cache_bypass \$sitestack_edge_refresh \$http_authorization;/);
    assert.match(text, /add_header X-Cache \$upstream_cache_status always;/);
    assert.match(text, /proxy_set_header x-forwarded-host \$http_host;/);
    assert.match(text, /proxy_set_header Host 127\.0\.0\.1:3000;/);
    assert.match(text, /listen 127\.0\.0\.1:8080 default_server;/);
    assert.match(text, /upstream sitestack_front \{ server 127\.0\.0\.1:3000; keepalive 32; keepalive_timeout 4s; \}/);
    assert.match(text, /proxy_cache_lock on;/);
    assert.match(text, /daemon off;/);
  });

  it('keeps status 200 for one hour and a refreshed 301, 404 or 410 for a minute on pages, and sets no default validity on /api/', () => {
    const config = renderNginxConfig(base);
    const pages = location(config, '/');
    const api = location(config, '/api/');
    assert.deepEqual(
      directiveLines(pages).filter((line) => line.startsWith('proxy_cache_valid')),
      ['proxy_cache_valid 200 1h;', 'proxy_cache_valid 301 404 410 60s;'],
    );
    assert.match(pages, /proxy_ignore_headers Cache-Control Expires X-Accel-Expires Vary;/);
    assert.deepEqual(directiveLines(api), ['location /api/ {', 'proxy_pass http://sitestack_front;']);
    assert.equal(
      directiveLines(config).filter((line) => line.startsWith('proxy_cache_valid')).length,
      4,
      'proxy_cache_valid only in the page, data route and image locations',
    );
    assert.match(api, /proxy_pass http:\/\/sitestack_front;/);
  });

  it('keeps a data route 200 for one second, never a 404, and stale only while the front fails, when given the defaults', () => {
    assert.equal(EDGE_CACHE_SETTINGS.dataRoutePrefix, DATA_PREFIX, "the renderer's data routes");
    const config = renderNginxConfig(base);
    assert.deepEqual(directiveLines(location(config, '/_render/data/')), [
      'location /_render/data/ {',
      'proxy_cache_key $scheme://$http_host$request_uri;',
      'gunzip on;',
      'proxy_ignore_headers Cache-Control Expires X-Accel-Expires Vary;',
      'proxy_cache_valid 200 1s;',
      'proxy_cache_use_stale error timeout http_500 http_502 http_503 http_504;',
      'proxy_pass http://sitestack_front;',
    ]);
    const server = directiveLines(config.slice(config.indexOf('server {'), config.indexOf('location / {')));
    assert.ok(server.includes('proxy_cache_lock on;'), 'the data route location inherits the cache lock');
    assert.ok(server.includes('proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;'), 'pages still serve stale while updating');
  });

  it('keeps an image 200 for a year, one copy per URL asked of the front without coding, never a 404, when given the defaults', () => {
    const config = renderNginxConfig(base);
    const images = directiveLines(location(config, '/_render/image/'));
    const expected = ['proxy_cache_key $scheme://$http_host$request_uri;', 'proxy_cache_valid 200 365d;', 'proxy_pass http://sitestack_front;'];
    for (const line of expected) assert.ok(images.includes(line), line);
    assert.ok(images.includes('proxy_ignore_headers Cache-Control Expires X-Accel-Expires Vary;'), 'its max-age is not what keeps it');
    assert.equal(images.filter((line) => line.startsWith('proxy_cache_valid')).length, 1, 'no 404 kept');
    assert.match(config, /"~\^\/_render\/image\/" identity;/);
  });

  it('hides Surrogate-Key from readers and updates an expired page in the background, pages only, when given the defaults', () => {
    const config = renderNginxConfig(base);
    const server = directiveLines(config.slice(config.indexOf('server {'), config.indexOf('location / {')));
    assert.ok(server.includes('proxy_hide_header Surrogate-Key;'));
    assert.ok(directiveLines(location(config, '/')).includes('proxy_cache_background_update on;'));
    assert.equal(directiveLines(config).filter((line) => line.startsWith('proxy_cache_background_update')).length, 1, 'not for /api/ nor data routes');
  });

  it('keeps a data route for dataRouteValidSeconds when given, and refuses a value that is not a positive integer', () => {
    assert.match(location(renderNginxConfig({ ...base, dataRouteValidSeconds: 3 }), '/_render/data/'), /proxy_cache_valid 200 3s;/);
    for (const dataRouteValidSeconds of [0, -1, 0.5, Number.NaN]) {
      assert.throws(() => renderNginxConfig({ ...base, dataRouteValidSeconds }), { code: 'EDGE_CONFIG_INVALID' }, String(dataRouteValidSeconds));
    }
  });

  it('lets only a refresh store a 301, 404 or 410, and any request store a 200', () => {
    const text = directiveLines(renderNginxConfig(base)).join(' ');
    assert.match(
      text,
      /map "\$sitestack_edge_refresh:\$upstream_status" \$sitestack_edge_refreshed_gone \{ default 0; "~\^1:\(\.\*\[ ,\]\)\?\(301\|404\|410\)\$" 1; \}/,
    );
    assert.match(
      text,
      /map "\$sitestack_edge_refreshed_gone:\$upstream_status" \$sitestack_edge_not_storable \{ default 1; "~\[:, \]200\$" 0; "~\^1:" 0; \}/,
    );
    assert.match(
      text,
      /proxy_no_cache \$http_authorization \$sitestack_edge_no_store \$sitestack_edge_not_storable \$sitestack_edge_front_stale \$sitestack_edge_per_client;/,
    );
  });

  it("never stores a front's answer from its soft-purged copy, on any location", () => {
    const config = renderNginxConfig(base);
    const text = directiveLines(config).join(' ');
    assert.match(text, /map \$upstream_http_x_middleware_cache \$sitestack_edge_front_stale \{ default 0; "stale" 1; \}/);
    assert.match(text, /proxy_no_cache [^;]*\$sitestack_edge_front_stale[ ;]/);
    assert.equal(directiveLines(config).filter((line) => line.startsWith('proxy_no_cache')).length, 1, 'set once for the server, overridden by no location');
  });

  it('keeps a refreshed 404 for goneValidSeconds when given, and refuses a value that is not a positive integer', () => {
    assert.match(location(renderNginxConfig({ ...base, goneValidSeconds: 5 }), '/'), /proxy_cache_valid 301 404 410 5s;/);
    for (const goneValidSeconds of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => renderNginxConfig({ ...base, goneValidSeconds }), { code: 'EDGE_CONFIG_INVALID' }, String(goneValidSeconds));
    }
  });

  it('keeps every nginx file under the edge directory when rendered', () => {
    const config = renderNginxConfig(base);
    const paths = [...config.matchAll(/"(\/[^"]*)"/g)].map((match) => match[1] ?? '');
    assert.ok(paths.length >= 8, `expected the pid, lock, temp and cache paths, got ${paths.join(', ')}`);
    for (const path of paths) assert.ok(path.startsWith('/srv/site/data/edge/'), path);
    for (const kind of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
      assert.match(config, new RegExp(`${kind}_temp_path "/srv/site/data/edge/temp/${kind}";`));
    }
    assert.match(config, /error_log stderr warn;/);
    assert.match(config, /access_log off;/);
  });

  it('adds a user directive only when a worker user is given', () => {
    assert.doesNotMatch(renderNginxConfig(base), /^user /m);
    assert.match(renderNginxConfig({ ...base, user: 'root' }), /^user root;$/m);
    assert.throws(() => renderNginxConfig({ ...base, user: 'root; daemon on' }), { code: 'EDGE_CONFIG_INVALID' });
  });

  it('writes an access log with the cache status when asked', () => {
    const config = renderNginxConfig({ ...base, accessLog: true });
    assert.match(config, /access_log "\/srv\/site\/data\/edge\/access.log" sitestack_edge buffer=64k flush=1s;/);
    assert.match(config, /\$upstream_cache_status/);
  });

  it('quotes a directory with spaces and quotes when rendering paths', () => {
    const config = renderNginxConfig({ ...base, edgeDir: '/tmp/my "site" data/edge' });
    assert.match(config, /pid "\/tmp\/my \\"site\\" data\/edge\/nginx.pid";/);
  });

  it('refuses a directory nginx cannot take when it has $, a newline or is relative', () => {
    for (const edgeDir of ['/tmp/$host/edge', '/tmp/a\nb/edge', 'data/edge']) {
      assert.throws(() => renderNginxConfig({ ...base, edgeDir }), { code: 'EDGE_CONFIG_INVALID' });
    }
  });

  it('balances over several upstreams when given more than one', () => {
    const config = renderNginxConfig({ ...base, upstreams: [{ host: '10.0.0.1', port: 3000 }, { host: 'front-2', port: 3001 }] });
    assert.match(config, /server 10\.0\.0\.1:3000;\n\s+server front-2:3001;/);
    assert.throws(() => renderNginxConfig({ ...base, upstreams: [] }), /at least one upstream/);
  });
});

describe('formatHostPort', () => {
  it('puts IPv6 addresses in brackets when formatting', () => {
    assert.equal(formatHostPort({ host: '::1', port: 8080 }), '[::1]:8080');
    assert.equal(formatHostPort({ host: '[::]', port: 80 }), '[::]:80');
    assert.equal(formatHostPort({ host: 'localhost', port: 1 }), 'localhost:1');
  });

  it('refuses hosts and ports that would inject nginx syntax or cannot be listened on', () => {
    for (const host of ['', 'a b', 'evil;', 'host}', 'a/b', '::1; include /etc', 'ünicode.example', '-lead']) {
      assert.throws(() => formatHostPort({ host, port: 80 }), { code: 'EDGE_CONFIG_INVALID' }, host);
    }
    for (const port of [0, -1, 65536, 1.5, Number.NaN]) {
      assert.throws(() => formatHostPort({ host: 'localhost', port }), { code: 'EDGE_CONFIG_INVALID' }, String(port));
    }
  });
});

describe('acceptsCoding', () => {
  /** The weight RFC 9110 gives `coding` in an Accept-Encoding value that names it once, read plainly; 0 when absent. */
  function weightOf(header: string, coding: string): number {
    for (const item of header.split(',')) {
      const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
      if ((name === 'x-gzip' ? 'gzip' : name) !== coding) continue;
      const q = params.find((param) => param.replace(/\s/g, '').startsWith('q='));
      return q === undefined ? 1 : Number(q.replace(/\s/g, '').slice(2));
    }
    return 0;
  }

  it('matches exactly the values that name the coding with a weight above 0 when each coding is named once', () => {
    const name = fc.constantFrom('br', 'gzip', 'x-gzip', 'identity', '*', 'deflate', 'brotli', 'xbr', 'BR', 'GZIP');
    const weight = fc.constantFrom('', ';q=0', ';q=0.0', ';q=0.000', ';q=0.5', ';q=1', ';q=1.000', ';q=0.001', ' ; q = 0.8', ';q=0.010');
    const items = fc.uniqueArray(fc.tuple(name, weight), { minLength: 1, maxLength: 5, selector: ([n]) => n.toLowerCase().replace('x-gzip', 'gzip') });
    const header = items.chain((pairs) => fc.constantFrom(', ', ',', ' ,  ').map((separator) => pairs.map(([n, q]) => `${n}${q}`).join(separator)));
    const br = new RegExp(acceptsCoding('br'), 'i');
    const gzip = new RegExp(acceptsCoding('(x-)?gzip'), 'i');
    fc.assert(
      fc.property(header, (value) => {
        assert.equal(br.test(value), weightOf(value, 'br') > 0, `br in '${value}'`);
        assert.equal(gzip.test(value), weightOf(value, 'gzip') > 0, `gzip in '${value}'`);
      }),
    );
  });

  it('is the map the config keys the cache and the upstream request on', () => {
    const config = renderNginxConfig(base);
    assert.match(config, /proxy_cache_key "\$scheme:\/\/\$http_host\$sitestack_edge_target \$sitestack_edge_encoding";/);
    assert.ok(config.includes('  map $request_uri $sitestack_edge_target {\n    default $request_uri;\n    "~^(/[a-z]{2,3}(?:-[A-Z]{2})?/search)(\\?.*)?$" $1;'));
    assert.match(config, /proxy_set_header Accept-Encoding \$sitestack_edge_upstream_encoding;/);
    assert.match(config, /map \$uri \$sitestack_edge_upstream_encoding \{\n {4}default \$sitestack_edge_encoding;\n {4}"~\^\/_render\/data\/" gzip;/);
    for (const coding of EDGE_CACHE_SETTINGS.codings) assert.ok(config.includes(`" ${coding};`), coding);
  });
});
