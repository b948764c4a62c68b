import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { REQUEST_BOUNDS } from '../http/index.js';
import { renderNginxConfig, type EdgeConfigOptions } from './nginx-config.js';
import { MAX_HOST_BYTES, OPERATOR_PATHS, PROXY_BUFFER_BYTES } from './nginx-public.js';

const base: EdgeConfigOptions = {
  edgeDir: '/srv/site/data/edge',
  listen: { host: '127.0.0.1', port: 8080 },
  upstreams: [{ host: '127.0.0.1', port: 3000 }],
};

/** The entries of `map <source> <variable> { ... }`, as [pattern, value] pairs after its `default`. */
function mapEntries(config: string, variable: string): [string, string][] {
  const match = new RegExp(`map [^{]* \\${variable} \\{\\n((?: {4}.*\\n)*?) {2}\\}`).exec(config);
  assert.ok(match, `no map for ${variable}`);
  return (match[1] ?? '')
    .trim()
    .split('\n')
    .map((line) => line.trim().replace(/;$/, ''))
    .filter((line) => !line.startsWith('default '))
    .map((line) => {
      const cut = line.lastIndexOf(' ');
      return [JSON.parse(line.slice(0, cut).replace(/\\/g, '\\\\')) as string, line.slice(cut + 1)];
    });
}

/** The regular expression of a map entry (`~` case-sensitive, `~*` not) as JavaScript reads the same pattern. */
function entryRegex(pattern: string): RegExp {
  assert.ok(pattern.startsWith('~'), `expected a regular expression, got ${pattern}`);
  return pattern.startsWith('~*') ? new RegExp(pattern.slice(2), 'i') : new RegExp(pattern.slice(1));
}

const secretChar = fc.constantFrom(...'abcXYZ019._~+/=-'.split(''));
const secret = fc.array(secretChar, { minLength: 16, maxLength: 40 }).map((chars) => chars.join(''));

describe('the public side of the edge config', () => {
  it('refreshes for exactly the secret, not another case, prefix or extension of it, when given any valid secret', () => {
    fc.assert(
      fc.property(secret, fc.nat(), (value, at) => {
        const config = renderNginxConfig({ ...base, refreshSecret: value });
        const [candidate] = mapEntries(config, '$sitestack_edge_refresh_candidate');
        assert.equal(candidate?.[0].replace(/^\\/, ''), value, 'the hash lookup holds the secret as is');
        const [exact] = mapEntries(config, '$sitestack_edge_refresh');
        const regex = entryRegex(exact?.[0] ?? '');
        assert.ok(regex.test(`1:${value}`));
        const i = at % value.length;
        const flipped = value.slice(0, i) + (value[i] === value[i]?.toUpperCase() ? value[i]?.toLowerCase() : value[i]?.toUpperCase()) + value.slice(i + 1);
        for (const other of [`${value}x`, value.slice(0, -1), `x${value}`, value.slice(0, i) + '#' + value.slice(i + 1)]) assert.ok(!regex.test(`1:${other}`), other);
        if (flipped !== value) assert.ok(!regex.test(`1:${flipped}`), flipped);
        assert.ok(!regex.test(`0:${value}`), 'only what the hash lookup found');
      }),
    );
  });

  it('escapes a secret starting with ~ so the hash lookup does not read it as a regular expression', () => {
    const config = renderNginxConfig({ ...base, refreshSecret: '~abcdefghijklmnop' });
    assert.match(config, /^ {4}"\\~abcdefghijklmnop" 1;$/m);
  });

  it('refreshes for no value at all when no secret is given', () => {
    const config = renderNginxConfig(base);
    assert.deepEqual(mapEntries(config, '$sitestack_edge_refresh_candidate'), []);
    assert.deepEqual(mapEntries(config, '$sitestack_edge_refresh'), []);
    assert.match(config, /proxy_cache_bypass \$sitestack_edge_refresh \$http_authorization;/);
  });

  it('refuses a secret nginx cannot take, without writing it into the message', () => {
    for (const bad of ['short', 'has space in it at all', 'dollar$sign-in-the-value', 'quote"in-the-value-here', 'x'.repeat(257)]) {
      assert.throws(
        () => renderNginxConfig({ ...base, refreshSecret: bad }),
        (error: unknown) => (error as { code?: string }).code === 'EDGE_CONFIG_INVALID' && !(error as Error).message.includes(bad),
        bad,
      );
    }
  });

  it('answers 404 itself for every operator path and everything below it, in any case, before any location', () => {
    const config = renderNginxConfig(base);
    const [[pattern = '', value] = []] = mapEntries(config, '$sitestack_edge_operator_route');
    assert.equal(value, '1');
    const regex = entryRegex(pattern);
    for (const path of OPERATOR_PATHS) {
      for (const spelling of [path, `${path}/`, `${path}/x`, path.toUpperCase()]) assert.ok(regex.test(spelling), spelling);
      for (const other of [`${path}x`, `/x${path}`, `${path}.json`]) assert.ok(!regex.test(other), other);
    }
    assert.deepEqual([...OPERATOR_PATHS].sort(), ['/__cache__', '/__purge__', '/healthz', '/metrics', '/readyz']);
    const server = config.slice(config.indexOf('  server {'));
    assert.ok(server.indexOf('if ($sitestack_edge_operator_route)') < server.search(/^ {4}location /m), 'server level, before the locations');
  });

  it('bounds request lines, header lines and the host, and makes the upstream buffer hold the longest cache key', () => {
    const config = renderNginxConfig(base);
    assert.match(config, new RegExp(`large_client_header_buffers 4 ${REQUEST_BOUNDS.maxUrlBytes / 1024}k;`));
    assert.match(config, /error_page 494 =431 @sitestack_edge_too_large;/);
    assert.match(config, /location @sitestack_edge_too_large \{\n {6}return 431;/);
    assert.match(config, new RegExp(`proxy_buffer_size ${PROXY_BUFFER_BYTES / 1024}k;`));
    const [[hostPattern = ''] = []] = mapEntries(config, '$sitestack_edge_host_too_long');
    const host = entryRegex(hostPattern);
    assert.ok(!host.test('h'.repeat(MAX_HOST_BYTES)) && host.test('h'.repeat(MAX_HOST_BYTES + 1)));
    // nginx's own rule: the cache header (under 600 bytes), the key and 256 bytes must fit.
    const longestKey = 'https://'.length + MAX_HOST_BYTES + REQUEST_BOUNDS.maxUrlBytes + ' identity'.length;
    assert.ok(600 + longestKey + 256 <= PROXY_BUFFER_BYTES - 4096, 'the 4 KiB nginx gives answer headers by default are left');
  });

  it('never stores an answer that carries a header describing one client', () => {
    const config = renderNginxConfig(base);
    assert.match(config, /map "\$upstream_http_ratelimit[^"]*\$upstream_http_ratelimit_remaining[^"]*\$upstream_http_retry_after" \$sitestack_edge_per_client \{\n {4}default 1;\n {4}"" 0;/);
    assert.match(config, /proxy_no_cache [^;]*\$sitestack_edge_per_client;/);
  });
});
