import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyMergePatch, MERGE_PATCH_MAX_DEPTH } from './merge-patch.js';

/** JSON values, objects among them, with keys that collide often enough to exercise merging. */
const key = fc.constantFrom('a', 'b', 'c', 'title', '__proto__', 'constructor', 'é');
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.integer(), fc.string(), fc.array(tie('value'), { maxLength: 3 }), tie('object')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4, noNullPrototype: true }),
})).value;
const object = fc.dictionary(key, json, { maxKeys: 4, noNullPrototype: true });

/** A parsed copy, so a test sees objects as JSON.parse makes them (with `__proto__` as an own key). */
const copy = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** The paths of a patch's nulls, each of which names a member the result must not have. */
const nullPaths = (patch: Record<string, unknown>, prefix: string[] = []): string[][] =>
  Object.entries(patch).flatMap(([name, value]) =>
    value === null ? [[...prefix, name]] : isObject(value) ? nullPaths(value, [...prefix, name]) : [],
  );
const hasPath = (value: unknown, path: string[]): boolean => {
  const [head, ...rest] = path;
  if (head === undefined) return true;
  return isObject(value) && Object.hasOwn(value, head) && hasPath(value[head], rest);
};

describe('applyMergePatch', () => {
  it('answers the results of RFC 7396 appendix A when given its examples', () => {
    const examples: [string, string, string][] = [
      ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
      ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
      ['{"a":"b"}', '{"a":null}', '{}'],
      ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
      ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
      ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
      ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
      ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
      ['["a","b"]', '["c","d"]', '["c","d"]'],
      ['{"a":"b"}', '["c"]', '["c"]'],
      ['{"a":"foo"}', 'null', 'null'],
      ['{"a":"foo"}', '"bar"', '"bar"'],
      ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
      ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
      ['{}', '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
    ];
    for (const [target, patch, result] of examples) {
      assert.deepEqual(applyMergePatch(JSON.parse(target), JSON.parse(patch)), JSON.parse(result), `${target} + ${patch}`);
    }
  });

  it('changes neither argument and gives the same result twice when any patch is applied to any value', () => {
    fc.assert(
      fc.property(json, json, (target, patch) => {
        const [targetBefore, patchBefore] = [copy(target), copy(patch)];
        const once = applyMergePatch(target, patch);
        assert.deepEqual(applyMergePatch(once, patch), once);
        assert.deepEqual([target, patch], [targetBefore, patchBefore]);
      }),
    );
  });

  it('keeps the members a patch does not name, sets those it gives and removes those it sets to null when the patch is an object', () => {
    fc.assert(
      fc.property(object, object, (target, patch) => {
        const result = applyMergePatch(target, patch) as Record<string, unknown>;
        for (const [name, value] of Object.entries(target)) if (!Object.hasOwn(patch, name)) assert.deepEqual(result[name], value, name);
        for (const [name, value] of Object.entries(patch)) if (value !== null && !isObject(value)) assert.deepEqual(result[name], value, name);
        for (const path of nullPaths(patch)) assert.equal(hasPath(result, path), false, path.join('.'));
      }),
    );
  });

  it('keeps __proto__ as a plain member and leaves prototypes alone when a patch names it', () => {
    const result = applyMergePatch({}, JSON.parse('{"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(result), Object.prototype);
    assert.deepEqual(Object.keys(result), ['__proto__']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('refuses with INVALID_INPUT when the patch nests objects deeper than the limit', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(MERGE_PATCH_MAX_DEPTH + 1)}1${'}'.repeat(MERGE_PATCH_MAX_DEPTH + 1)}`) as unknown;
    assert.throws(() => applyMergePatch({}, deep), { code: 'INVALID_INPUT' });
    const deepest = JSON.parse(`${'{"a":'.repeat(MERGE_PATCH_MAX_DEPTH)}1${'}'.repeat(MERGE_PATCH_MAX_DEPTH)}`) as unknown;
    assert.deepEqual(applyMergePatch({}, deepest), deepest);
  });
});
