import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isBypassed } from './bypass.js';
import { DEFAULTS } from './options.js';

describe('isBypassed', () => {
  it('bypasses the spec prefixes when the path starts with one of them', () => {
    for (const target of ['/_render/image/a.png', '/_render/static/b/app.js', '/search', '/search?q=x', '/searchable']) {
      assert.equal(isBypassed(target, DEFAULTS.bypassPrefixes), true, target);
    }
  });

  it('does not bypass when the prefix appears elsewhere in the path', () => {
    for (const target of ['/', '/en-US/search', '/plog/search', '/_render/data/b/en-US/index.json', '/x?next=/search']) {
      assert.equal(isBypassed(target, DEFAULTS.bypassPrefixes), false, target);
    }
  });
});
