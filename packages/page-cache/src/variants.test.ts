import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEntry } from './entry.js';
import { resolveOptions } from './options.js';
import { EntryStore } from './store.js';
import { PERSONAL, Variants } from './variants.js';

const entryVarying = (vary?: string) => createEntry({ 'content-type': 'text/html', ...(vary === undefined ? {} : { vary }) }, Buffer.from('<p>a</p>'));

function variantsWithStore() {
  const store = new EntryStore(resolveOptions());
  return { store, variants: new Variants(store, 10) };
}

describe('Variants', () => {
  it('knows nothing of a key until a response stored under it varies', () => {
    const { variants } = variantsWithStore();
    assert.equal(variants.keyFor('/a', { 'accept-language': 'en' }), undefined);
    assert.equal(variants.storageKey('/a', entryVarying('Accept-Encoding'), {}), '/a');
    assert.equal(variants.keyFor('/a', { 'accept-language': 'en' }), undefined);
  });

  it('stores a varying response under its variant key, which requests with the same values find', () => {
    const { variants } = variantsWithStore();
    const stored = variants.storageKey('/a', entryVarying('Accept-Language'), { 'accept-language': 'en' });
    assert.notEqual(stored, '/a');
    assert.equal(variants.keyFor('/a', { 'accept-language': 'en' }), stored);
    assert.notEqual(variants.keyFor('/a', { 'accept-language': 'fr' }), stored);
  });

  it('drops the non-varying entry of a key once its responses vary, and forgets the variance when they stop', () => {
    const { store, variants } = variantsWithStore();
    store.set('/a', entryVarying());
    variants.storageKey('/a', entryVarying('X-Theme'), {});
    assert.equal(store.peek('/a'), undefined);
    assert.equal(variants.storageKey('/a', entryVarying(), {}), '/a');
    assert.equal(variants.keyFor('/a', {}), undefined);
  });

  it('stores nothing for Vary: * or for a request carrying the cookie a response varies on, and says so to lookups', () => {
    const { variants } = variantsWithStore();
    assert.equal(variants.storageKey('/a', entryVarying('*'), {}), undefined);
    assert.equal(variants.storageKey('/a', entryVarying('Cookie'), { cookie: 'a=1' }), undefined);
    assert.equal(variants.keyFor('/a', { cookie: 'a=1' }), PERSONAL);
    assert.equal(typeof variants.keyFor('/a', {}), 'string');
  });

  it('lets a request that waited on a render take its entry only when it is the variant it selects', () => {
    const { variants } = variantsWithStore();
    const en = variants.storageKey('/a', entryVarying('Accept-Language'), { 'accept-language': 'en' })!;
    assert.equal(variants.matches('/a', '/a', en, { 'accept-language': 'en' }), true);
    assert.equal(variants.matches('/a', '/a', en, { 'accept-language': 'fr' }), false);
    assert.equal(variants.matches('/b', '/b', '/b', {}), true);
  });
});
