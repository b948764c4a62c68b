import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { categoryPath, isCategoryName } from './categories.js';

describe('isCategoryName', () => {
  it('accepts the names an admin can give a post, unicode included', () => {
    for (const name of ['Web', 'Node.js', 'C#', 'C++', 'Web design', 'Café', '数据库', 'a'.repeat(40), '2026']) assert.equal(isCategoryName(name), true, name);
  });

  it('refuses anything the origin would not store when the text is empty, long, padded, not NFC or has other characters', () => {
    for (const name of ['', 'a'.repeat(41), ' Web', 'Web ', '.hidden', '-x', 'a/b', 'a?b', '..', 'Cafe\u0301', 'x\u0000', 'x\ud800', '<script>', 'a%20b', 42, null, ['Web']]) {
      assert.equal(isCategoryName(name), false, JSON.stringify(name));
    }
  });
});

describe('categoryPath', () => {
  it('percent-encodes the name as one path segment when it has spaces, # or unicode', () => {
    const paths = { Web: '/plog/category/Web', 'C#': '/plog/category/C%23', 'Web design': '/plog/category/Web%20design', Café: '/plog/category/Caf%C3%A9' };
    for (const [name, path] of Object.entries(paths)) assert.equal(categoryPath(name), path, name);
  });

  it('reads back to the name and stays one segment when given any valid name', () => {
    const name = fc.string({ unit: fc.constantFrom('a', 'Z', '9', 'é', '数', ' ', '.', '_', '+', '#', '-', '𝒜'), minLength: 1, maxLength: 20 }).filter(isCategoryName);
    fc.assert(
      fc.property(name, (value) => {
        const segment = categoryPath(value).slice('/plog/category/'.length);
        assert.doesNotMatch(segment, /[/?#\s]/);
        assert.equal(decodeURIComponent(segment), value);
      }),
    );
  });
});
