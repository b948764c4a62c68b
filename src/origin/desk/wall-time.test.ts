import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isTimeZone, utcToWallTime, wallTimeToUtc } from './wall-time.js';

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/St_Johns', 'Asia/Kathmandu'];

describe('wall-clock times', () => {
  it('read a time in the zone it was typed in when the zone is known', () => {
    assert.equal(wallTimeToUtc('2026-06-01T09:30', 'Europe/Paris'), '2026-06-01T07:30:00.000Z');
    assert.equal(wallTimeToUtc('2026-01-15T09:30', 'America/New_York'), '2026-01-15T14:30:00.000Z');
    assert.equal(wallTimeToUtc('2026-06-01T09:30:15.5', 'Asia/Kolkata'), '2026-06-01T04:00:15.500Z');
  });

  it('read a time skipped by a clock change with the offset from before it, and a repeated one as the first', () => {
    assert.equal(wallTimeToUtc('2026-03-29T02:30', 'Europe/Paris'), '2026-03-29T01:30:00.000Z');
    assert.equal(wallTimeToUtc('2026-10-25T02:30', 'Europe/Paris'), '2026-10-25T00:30:00.000Z');
  });

  it('refuse dates that do not exist and zones that are not IANA names', () => {
    for (const local of ['2026-02-30T10:00', '2026-13-01T10:00', '2026-06-01T24:00', '2026-06-01 10:00', '', '2026-06-01T10:60']) assert.equal(wallTimeToUtc(local, 'UTC'), undefined, local);
    for (const zone of ['Mars/Olympus', '../../etc', '', 'UTC; drop', 'a'.repeat(100)]) {
      assert.equal(isTimeZone(zone), false, zone);
      assert.equal(wallTimeToUtc('2026-06-01T10:00', zone), undefined, zone);
    }
  });

  it('shows an instant on a wall clock that reads back to the same instant, outside repeated hours', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2090, 0, 1) }), (zone, ms) => {
        const instant = new Date(Math.floor(ms / 60_000) * 60_000).toISOString();
        const wall = utcToWallTime(instant, zone);
        const back = wallTimeToUtc(wall, zone);
        assert.ok(back !== undefined);
        // A wall time that occurs twice reads as the first: it shows the same wall clock, at most a few hours earlier.
        assert.equal(utcToWallTime(back, zone), wall);
        assert.ok(Date.parse(back) <= Date.parse(instant) && Date.parse(instant) - Date.parse(back) <= 3 * 3_600_000, `${zone} ${instant} → ${wall} → ${back}`);
      }),
      { numRuns: 400 },
    );
  });
});
