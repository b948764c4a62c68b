/**
 * The behaviour every SharedTier shows its page cache, as a node:test suite any implementation runs:
 * `sharedTierContract('the Redis tier', makeRedisTier)`. Only what the contract (shared-tier.ts) promises is checked;
 * how a purge reaches the tier is the implementation's, given as the `purge` hook.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { SharedCopy, SharedLookup, SharedTicket, SharedTier } from '@sitestack/page-cache';

/** One fresh, empty tier and the hooks the suite drives it with. */
export interface SharedTierUnderTest {
  tier: SharedTier;
  /** A purge as the origin sends it: removes, or with `soft` marks stale, every copy these targets and keys find. */
  purge(targets: readonly string[], keys: readonly string[], soft: boolean): Promise<void>;
  /** Resolves once every store and release sent so far has landed (they are fire and forget). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** A copy as a page cache would build it, with a body of its own bytes. */
export function copyOf(name: string, targets: readonly string[], keys: readonly string[] = []): SharedCopy {
  return { head: JSON.stringify({ name }), body: Buffer.from(`<p>${name}</p>\u0000\u00ff`, 'latin1'), targets, keys };
}

function ticketOf(answer: SharedLookup): SharedTicket {
  assert.equal(answer.role, 'lead', `expected to lead, got ${answer.role}`);
  return (answer as { ticket: SharedTicket }).ticket;
}

function assertFound(answer: SharedLookup, copy: SharedCopy): void {
  assert.equal(answer.role, 'found', `expected the copy, got ${answer.role}`);
  const found = (answer as { copy: SharedCopy }).copy;
  assert.equal(found.head, copy.head);
  assert.ok(found.body.equals(copy.body), 'the body comes back byte for byte');
  assert.deepEqual([...new Set(found.targets)].sort(), [...new Set(copy.targets)].sort());
  assert.deepEqual([...new Set(found.keys)].sort(), [...new Set(copy.keys)].sort());
}

export function sharedTierContract(name: string, make: () => Promise<SharedTierUnderTest>): void {
  describe(`${name} as a SharedTier`, () => {
    let subject: SharedTierUnderTest;
    let tier: SharedTier;
    beforeEach(async () => {
      subject = await make();
      tier = subject.tier;
    });
    afterEach(async () => subject.close());

    /** Leads a render of `key`, stores `copy` under its ticket, and waits for it to land. */
    const rendered = async (key: string, copy: SharedCopy): Promise<void> => {
      tier.store(key, copy, ticketOf(await tier.lookup(key, true)));
      await subject.settled();
    };

    it('lets one lookup lead and makes the next wait when nothing is held', async () => {
      ticketOf(await tier.lookup('/a', true));
      const second = await tier.lookup('/a', true);
      assert.equal(second.role, 'wait');
      assert.equal((second as { copy?: SharedCopy }).copy, undefined);
    });

    it('answers the copy a render stored under its ticket when another process looks it up', async () => {
      const copy = copyOf('a', ['/a', '/'], ['post:1']);
      await rendered('/a', copy);
      assertFound(await tier.lookup('/a', true), copy);
      assertFound(await tier.lookup('/a', false), copy);
    });

    it('never lets a lookup lead when it does not ask to', async () => {
      assert.notEqual((await tier.lookup('/quiet', false)).role, 'lead');
      ticketOf(await tier.lookup('/quiet', true));
      assert.equal((await tier.lookup('/quiet', false)).role, 'wait');
    });

    it('lets the next lookup lead when the render releases its lock', async () => {
      const ticket = ticketOf(await tier.lookup('/b', true));
      tier.release('/b', ticket);
      await subject.settled();
      ticketOf(await tier.lookup('/b', true));
    });

    it('refuses the copy and frees the lock when a purge reached the tier after the ticket', async () => {
      const ticket = ticketOf(await tier.lookup('/c', true));
      await subject.purge(['/elsewhere'], [], false);
      tier.store('/c', copyOf('c', ['/c']), ticket);
      await subject.settled();
      ticketOf(await tier.lookup('/c', true));
    });

    it('keeps the lock and stores nothing when given a ticket it did not give', async () => {
      ticketOf(await tier.lookup('/d', true));
      for (const forged of ['', 'x', '0.', '1.zz', `9.${'0'.repeat(32)}`, '\u0000{}\n']) {
        tier.release('/d', forged);
        tier.store('/d', copyOf('forged', ['/d']), forged);
      }
      await subject.settled();
      const answer = await tier.lookup('/d', true);
      assert.equal(answer.role, 'wait');
    });

    it('removes exactly the copies a purge names by pathname or by surrogate key', async () => {
      const a = copyOf('a', ['/a'], ['post:1', 'posts']);
      const b = copyOf('b', ['/b'], ['post:2', 'posts']);
      const c = copyOf('c', ['/c'], ['post:3']);
      await rendered('/a', a);
      await rendered('/b', b);
      await rendered('/c', c);
      await subject.purge(['/a'], [], false);
      assert.notEqual((await tier.lookup('/a', false)).role, 'found');
      assertFound(await tier.lookup('/b', false), b);
      await subject.purge([], ['post:3'], false);
      assert.notEqual((await tier.lookup('/c', false)).role, 'found');
      assertFound(await tier.lookup('/b', false), b);
      await rendered('/a', a);
      await subject.purge([], ['posts'], false);
      assert.notEqual((await tier.lookup('/a', false)).role, 'found');
      assert.notEqual((await tier.lookup('/b', false)).role, 'found');
    });

    it('offers a soft-purged copy with its stale time to the lead and to those who wait, until a render replaces it', async () => {
      const old = copyOf('old', ['/e'], ['post:5']);
      await rendered('/e', old);
      const before = Date.now();
      await subject.purge([], ['post:5'], true);
      const lead = await tier.lookup('/e', true);
      const wait = await tier.lookup('/e', true);
      assert.equal(wait.role, 'wait');
      for (const answer of [lead, wait] as (SharedLookup & { copy?: SharedCopy; staleSince?: number })[]) {
        assert.equal(answer.copy?.head, old.head);
        assert.ok(answer.staleSince !== undefined && Math.abs(answer.staleSince - before) < 60_000, `staleSince ${answer.staleSince} near ${before}`);
      }
      const fresh = copyOf('fresh', ['/e'], ['post:5']);
      tier.store('/e', fresh, ticketOf(lead));
      await subject.settled();
      assertFound(await tier.lookup('/e', true), fresh);
    });

    it('finds a replaced copy by its new targets and keys only', async () => {
      await rendered('/f', copyOf('first', ['/f', '/old-target'], ['old-key']));
      await subject.purge(['/f'], [], true);
      const replacement = copyOf('second', ['/f', '/new-target'], ['new-key']);
      await rendered('/f', replacement);
      await subject.purge(['/old-target'], ['old-key'], false);
      assertFound(await tier.lookup('/f', false), replacement);
      await subject.purge(['/new-target'], [], false);
      assert.notEqual((await tier.lookup('/f', false)).role, 'found');
    });

    it('keeps keys, targets and bodies as given when they hold unicode, braces, newlines and binary', async () => {
      const key = '/ünï/{tag}\n\u2028/🦆?q={}';
      const copy = { ...copyOf('odd', [key, '/{a}', '/%7B'], ['κλειδί', '{sitestack}:tier:bytes', 'a\nb']), body: Buffer.from([0, 255, 0x3a, 0x31, 0x3a]) };
      await rendered(key, copy);
      assertFound(await tier.lookup(key, true), copy);
      await subject.purge([], ['a\nb'], false);
      assert.notEqual((await tier.lookup(key, false)).role, 'found');
    });
  });
}
