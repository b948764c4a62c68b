import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LOCALE_SEGMENT, SEARCH_LOCALE } from './locale.js';

describe('LOCALE_SEGMENT', () => {
  const segment = new RegExp(`^${LOCALE_SEGMENT}$`);

  it('matches a language with an optional upper-case region when given a site path segment', () => {
    for (const locale of ['en', 'fr', 'ast', 'en-US', 'pt-BR']) assert.ok(segment.test(locale), locale);
    for (const locale of ['EN', 'en-us', 'e', 'engl', 'zh-Hant-TW', 'en-US-x']) assert.ok(!segment.test(locale), locale);
  });
});

describe('SEARCH_LOCALE', () => {
  it('accepts BCP 47 codes in any case and refuses what is not one', () => {
    for (const locale of ['en', 'EN-us', 'zh-Hant-TW', 'pt-BR']) assert.ok(SEARCH_LOCALE.test(locale), locale);
    for (const locale of ['e', 'en_US', 'en-', '', 'en-US-toolongsubtag']) assert.ok(!SEARCH_LOCALE.test(locale), locale);
  });
});
