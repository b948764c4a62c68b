import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DEFAULTS, resolveOptions } from './options.js';

/** A value as a TSDoc `@default` writes it. */
function written(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(written).join(', ')}]`;
  return String(value);
}

describe('PageCacheOptions', () => {
  it('documents each option once, with the @default that DEFAULTS holds', () => {
    const source = readFileSync(new URL('./options.ts', import.meta.url), 'utf8');
    const documented = new Map<string, string>();
    for (const [, value, name] of source.matchAll(/@default (.+)\n\s*\*\/\n\s*(\w+)\?:/g)) {
      assert.equal(documented.has(name!), false, `${name} documented twice`);
      documented.set(name!, value!);
    }
    for (const [name, value] of Object.entries(DEFAULTS)) assert.equal(documented.get(name), written(value), name);
    assert.deepEqual([...documented.keys()].sort(), [...Object.keys(DEFAULTS), 'logger'].sort());
  });

  it('resolves every unset option to its default', () => {
    const { logger, ...resolved } = resolveOptions({ maxEntries: undefined });
    assert.deepEqual(resolved, DEFAULTS);
    assert.equal(typeof logger.warn, 'function');
  });
});
