import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isAppError } from '../errors.js';
import { changeStanding, isVisible, parsePublishAt, parseState, settle, visibilityChange, type Standing } from './publication.js';

const NOW = '2026-12-01T12:00:00.000Z';
const LATER = '2026-12-01T12:00:20.000Z';
const EARLIER = '2026-12-01T11:59:00.000Z';

function refused(run: () => unknown, field: string): void {
  assert.throws(run, (error: unknown) => isAppError(error) && error.code === 'INVALID_INPUT' && error.message.startsWith(field));
}

describe('publication rules', () => {
  it('shows readers a published post and a scheduled one once due, never a draft', () => {
    assert.equal(isVisible({ state: 'published', publish_at: null }, NOW), true);
    assert.equal(isVisible({ state: 'draft', publish_at: null }, NOW), false);
    assert.equal(isVisible({ state: 'scheduled', publish_at: LATER }, NOW), false);
    assert.equal(isVisible({ state: 'scheduled', publish_at: NOW }, NOW), true);
    assert.equal(isVisible({ state: 'scheduled', publish_at: EARLIER }, NOW), true);
  });

  it('dates a scheduled post by its time, and publishes it at once when the time is past', () => {
    assert.deepEqual(settle({ state: 'scheduled', publish_at: LATER, pub_date: EARLIER }, NOW), { state: 'scheduled', publish_at: LATER, pub_date: LATER });
    assert.deepEqual(settle({ state: 'scheduled', publish_at: EARLIER, pub_date: NOW }, NOW), { state: 'published', publish_at: null, pub_date: EARLIER });
    assert.deepEqual(settle({ pub_date: EARLIER }, NOW), { state: 'published', publish_at: null, pub_date: EARLIER });
    assert.deepEqual(settle({ state: 'draft', publish_at: LATER, pub_date: EARLIER }, NOW), { state: 'draft', publish_at: null, pub_date: EARLIER });
    refused(() => settle({ state: 'scheduled', pub_date: NOW }, NOW), 'publish_at');
  });

  it('dates a post the moment Publish shows it, and keeps the date of one readers already see', () => {
    const draft = { state: 'draft' as const, publish_at: null, pub_date: EARLIER };
    assert.deepEqual(changeStanding(draft, 'published', undefined, NOW), { state: 'published', publish_at: null, pub_date: NOW });
    const published = { state: 'published' as const, publish_at: null, pub_date: EARLIER };
    assert.deepEqual(changeStanding(published, 'published', undefined, NOW), published);
    assert.deepEqual(changeStanding(published, 'draft', undefined, NOW), { ...published, state: 'draft' });
    assert.deepEqual(changeStanding(published, 'scheduled', LATER, NOW), { state: 'scheduled', publish_at: LATER, pub_date: LATER });
    const scheduled = { state: 'scheduled' as const, publish_at: LATER, pub_date: LATER };
    assert.deepEqual(changeStanding(scheduled, 'published', undefined, NOW), { state: 'published', publish_at: null, pub_date: NOW });
  });

  it('tells a publication from an edit, an unpublication and a change no reader sees', () => {
    const draft: Standing = { state: 'draft', publish_at: null };
    const published: Standing = { state: 'published', publish_at: null };
    assert.equal(visibilityChange(draft, published, NOW), 'appears');
    assert.equal(visibilityChange(undefined, published, NOW), 'created');
    assert.equal(visibilityChange(published, draft, NOW), 'disappears');
    assert.equal(visibilityChange(published, undefined, NOW), 'disappears');
    assert.equal(visibilityChange(published, published, NOW), 'changes');
    assert.equal(visibilityChange(draft, { state: 'scheduled', publish_at: LATER }, NOW), 'unseen');
    assert.equal(visibilityChange(undefined, draft, NOW), 'unseen');
  });

  it('reads a state, refusing anything but the three names', () => {
    assert.equal(parseState(undefined), 'published');
    assert.equal(parseState('draft'), 'draft');
    for (const value of ['Draft', 'DRAFT', ' draft', 'private', '', 1, true, ['draft'], { state: 'draft' }, 'dräft']) refused(() => parseState(value), 'state');
  });

  it('reads a publication time with its zone into UTC', () => {
    assert.equal(parsePublishAt('2026-12-01T10:30:00+01:00'), '2026-12-01T09:30:00.000Z');
    assert.equal(parsePublishAt('2026-12-01T09:30Z'), '2026-12-01T09:30:00.000Z');
    assert.equal(parsePublishAt('2026-12-01T09:30:00.123456789Z'), '2026-12-01T09:30:00.123Z');
    assert.equal(parsePublishAt('9999-12-31T23:59:59Z'), '9999-12-31T23:59:59.000Z');
  });

  it('refuses a time without a zone, an unreal date and one outside 1970 to 9999', () => {
    const bad = [
      '2026-12-01', '2026-12-01T09:30', '2026-12-01 09:30Z', '2026-02-30T09:30Z', '2026-12-01T24:00Z', '2026-12-01T09:60Z',
      '2026-12-01T09:30:61Z', '2026-12-01T09:30+25:00', '1969-12-31T23:59:59Z', '1970-01-01T00:30+01:00', '9999-12-31T23:00-05:00',
      '+010000-01-01T00:00:00Z', 'tomorrow', '', '２０２６-12-01T09:30Z', 1_767_000_000_000, null, ['2026-12-01T09:30Z'],
    ];
    for (const value of bad) refused(() => parsePublishAt(value), 'publish_at');
  });

  it('answers any time it accepts in one fixed-length UTC form, so times compare as strings', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }), fc.integer({ min: -14, max: 14 }), (date, hours) => {
        const zone = hours === 0 ? 'Z' : `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:00`;
        const local = new Date(date.getTime() + hours * 3_600_000).toISOString().slice(0, 23);
        const parsed = parsePublishAt(`${local}${zone}`);
        assert.equal(parsed, date.toISOString());
        assert.equal(parsed.length, 24);
      }),
    );
  });

  it('never throws anything but a clear input error, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.anything()), (value) => {
        try {
          parsePublishAt(value);
        } catch (error) {
          assert.ok(isAppError(error) && error.code === 'INVALID_INPUT');
        }
      }),
    );
  });
});
