import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isHomeDataRoute, PurgeIndex, purgeMatches, type PurgeRules } from './purge-match.js';

const rules: PurgeRules = { dataRoutePrefix: '/_render/data/', purgeQueryVariants: false };
const withVariants: PurgeRules = { ...rules, purgeQueryVariants: true };

/** Spec §4 step 3, word for word. */
const specRule = (key: string, pathname: string) =>
  key === pathname || (key.startsWith('/_render/data/') && key.includes(`${pathname}.json`));

// Keys and pathnames built from fragments that make matches, near-misses and contrived data routes likely.
const fragment = fc.constantFrom('/', 'a', 'b', '.json', '?', 'q=1', 'index', '_render/data/', 'en-US', 'plog', '/index.json', ' [x|y]');
const text = fc.array(fragment, { maxLength: 8 }).map((parts) => parts.join(''));
const key = fc.oneof(
  text.map((t) => `/${t}`),
  text.map((t) => `/_render/data/${t}`),
  fc.tuple(fc.constantFrom('b1', 'b2'), fc.constantFrom('en-US', 'fr'), text).map(([b, l, t]) => `/_render/data/${b}/${l}/${t}.json`),
);
const pathname = fc.oneof(text.map((t) => `/${t}`), fc.constant('/'));

describe('purgeMatches', () => {
  /** Example keys by the rule they show: the key, the purged pathname, the rules, and whether it is purged. */
  const examples: ReadonlyArray<[rule: string, cases: ReadonlyArray<[string, string, PurgeRules, boolean]>]> = [
    ['matches equal keys and data routes containing <pathname>.json when the spec rule applies', [
      ['/plog/a', '/plog/a', rules, true], ['/plog/a?x=1', '/plog/a', rules, false], ['/_render/data/b1/en-US/plog/a.json', '/plog/a', rules, true],
      ['/_render/data/b1/en-US/plog/a.json?x=1', '/plog/a', rules, true], ['/_render/data/b1/en-US/plog/ab.json', '/plog/a', rules, false],
      ['/other/plog/a.json', '/plog/a', rules, false], ['/a/../b', '/b', rules, false], ['/a/../b', '/a/../b', rules, true],
    ]],
    ['removes the home data route when the pathname is /', [
      ['/_render/data/b1/en-US/index.json', '/', rules, true], ['/_render/data/b1/en-US/index.json?x', '/', rules, true],
      ['/_render/data/b1/en-US/plog/index.json', '/', rules, false], ['/', '/', rules, true], ['/?a=1', '/', rules, false],
    ]],
    ['removes query variants only when purgeQueryVariants is on', [['/plog/a?utm=1', '/plog/a', withVariants, true], ['/plog/ab?utm=1', '/plog/a', withVariants, false]]],
    ['compares the page path of a path+variant key when it carries a variant suffix', [['/plog/a [dark|fr]', '/plog/a', rules, true], ['/plog/a [dark|fr]', '/plog', rules, false]]],
  ];

  for (const [rule, cases] of examples) {
    it(rule, () => {
      for (const [k, p, r, purged] of cases) assert.equal(purgeMatches(k, p, r), purged, `${k} by ${p}`);
    });
  }

  it('agrees with the literal spec rule for keys without variants when the pathname is not / (property)', () => {
    fc.assert(
      fc.property(key, pathname, (k, p) => {
        fc.pre(p !== '/' && !k.includes(' '));
        assert.equal(purgeMatches(k, p, rules), specRule(k, p));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isHomeDataRoute', () => {
  it('recognises <prefix><build>/<locale>/index.json only', () => {
    assert.equal(isHomeDataRoute('/_render/data/b/en-US/index.json', '/_render/data/'), true);
    assert.equal(isHomeDataRoute('/_render/data//en-US/index.json', '/_render/data/'), false);
    assert.equal(isHomeDataRoute('/_render/data/b/index.json', '/_render/data/'), false);
  });

  it('recognises <prefix><build>/index.json for any build segment when data routes have no locale (Next.js)', () => {
    assert.equal(isHomeDataRoute('/_next/data/Xy-9_a/index.json', '/_next/data/', false), true);
    assert.equal(isHomeDataRoute('/_next/data/Xy-9_a/index.json?x=1', '/_next/data/', false), true);
    assert.equal(isHomeDataRoute('/_next/data//index.json', '/_next/data/', false), false);
    assert.equal(isHomeDataRoute('/_next/data/b/en/index.json', '/_next/data/', false), false);
  });
});

describe('purgeMatches with Next.js data routes', () => {
  const next: PurgeRules = { dataRoutePrefix: '/_next/data/', dataRouteLocale: false, purgeQueryVariants: false };
  it('purges /_next/data/<buildId>/<path>.json with the page <path> whatever the build, and the home data route with /', () => {
    assert.equal(purgeMatches('/_next/data/abc123/posts/1.json', '/posts/1', next), true);
    assert.equal(purgeMatches('/_next/data/other-build/posts/1.json?slug=1', '/posts/1', next), true);
    assert.equal(purgeMatches('/_next/data/abc123/index.json', '/', next), true);
    assert.equal(purgeMatches('/_next/data/abc123/posts/12.json', '/posts/1', next), false);
    assert.equal(purgeMatches('/_next/static/chunks/posts/1.json', '/posts/1', next), false);
    assert.equal(purgeMatches('/_next/data/abc123/posts/index.json', '/', next), false);
  });

  it('finds the same keys through the index as by the rule, home data routes included (property)', () => {
    const nextKey = fc.tuple(fc.constantFrom('b1', 'XyZ-_9'), text).map(([b, t]) => `/_next/data/${b}/${t}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(nextKey, key), { maxLength: 30 }), pathname, (keys, p) => {
        const index = new PurgeIndex(next);
        for (const k of keys) index.add(k);
        const scanned = new Set(keys.filter((k) => purgeMatches(k, p, next)));
        assert.deepEqual(new Set(index.keysFor(p)), scanned);
      }),
      { numRuns: 500 },
    );
  });
});

describe('PurgeIndex', () => {
  for (const [name, limit] of [['indexed keys', 256], ['keys too contrived to index', 2]] as const) {
    it(`finds exactly the keys the rule scan finds, in insertion order, for ${name} (property)`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.boolean(), key), { maxLength: 40 }),
          fc.array(pathname, { minLength: 1, maxLength: 6 }),
          fc.boolean(),
          (operations, pathnames, queryVariants) => {
            const chosen = queryVariants ? withVariants : rules;
            const index = new PurgeIndex(chosen, limit);
            const held = new Set<string>();
            for (const [add, k] of operations) {
              if (add) {
                index.add(k);
                held.add(k);
              } else {
                index.remove(k);
                held.delete(k);
              }
            }
            assert.equal(index.size, held.size);
            for (const p of pathnames) {
              const scanned = [...held].filter((k) => purgeMatches(k, p, chosen));
              assert.deepEqual(new Set(index.keysFor(p)), new Set(scanned));
              assert.equal(index.keysFor(p).length, scanned.length);
            }
          },
        ),
        { numRuns: 500 },
      );
    });
  }
});
