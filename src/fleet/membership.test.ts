import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAnnouncement } from './membership.js';

describe('parseAnnouncement', () => {
  it('reads a front’s announcement as it wrote it', () => {
    const announcement = { address: 'http://10.0.0.7:3000', lastId: '1795824850949-0', startedAt: 1_795_824_000_000, pid: 42, host: 'front-7' };
    assert.deepEqual(parseAnnouncement(JSON.stringify(announcement)), announcement);
  });

  it('reads fields of the wrong kind as empty, never failing, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const parsed = parseAnnouncement(text);
        assert.equal(typeof parsed.address, 'string');
        assert.ok(parsed.lastId === '' || /^\d+-\d+$/.test(parsed.lastId));
        assert.ok(Number.isSafeInteger(parsed.pid));
      }),
    );
    assert.deepEqual(parseAnnouncement('{"lastId":"9-9; DROP","address":7,"host":"' + 'h'.repeat(1_000) + '"}'), { address: '', lastId: '', startedAt: 0, pid: 0, host: 'h'.repeat(255) });
  });
});
