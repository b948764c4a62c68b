import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, describe, it } from 'node:test';
import { tempOriginDatabase } from '../test-support/temp-database.js';
import { AccountStore } from './accounts.js';
import { TEST_SCRYPT } from './test-support/desk-client.js';

const PASSWORD = 'a long enough pass phrase';
const LIFETIME = { idleMs: 1000, absoluteMs: 10_000 };

describe('the account store', () => {
  const cleanups: (() => unknown)[] = [];
  after(() => cleanups.reverse().forEach((cleanup) => cleanup()));
  const fresh = () => new AccountStore(tempOriginDatabase(cleanups, 'desk-accounts-').db, TEST_SCRYPT);

  it('refuses a second user of the same name, a bad name and a weak password', async () => {
    const accounts = fresh();
    await accounts.addUser('alice', PASSWORD);
    await assert.rejects(accounts.addUser('alice', `${PASSWORD}!`), { code: 'USER_EXISTS' });
    await assert.rejects(accounts.addUser('Bob', PASSWORD), { code: 'INVALID_USER' });
    await assert.rejects(accounts.addUser('bob', 'short'), { code: 'INVALID_USER' });
    assert.deepEqual(accounts.userNames(), ['alice']);
  });

  it('ends every session of a user when the user is removed', async () => {
    const accounts = fresh();
    await accounts.addUser('alice', PASSWORD);
    const user = await accounts.authenticate('alice', PASSWORD);
    assert.ok(user !== undefined);
    const session = accounts.openSession(user, 0);
    assert.equal(accounts.session(session.id, LIFETIME, 10)?.userName, 'alice');
    assert.equal(accounts.removeUser('alice'), true);
    assert.equal(accounts.session(session.id, LIFETIME, 20), undefined);
    assert.equal(accounts.removeUser('alice'), false);
  });

  it('restarts the idle clock at each use and prunes sessions that are over', async () => {
    const accounts = fresh();
    await accounts.addUser('alice', PASSWORD);
    const user = (await accounts.authenticate('alice', PASSWORD))!;
    const kept = accounts.openSession(user, 0);
    const dropped = accounts.openSession(user, 0);
    assert.ok(accounts.session(kept.id, LIFETIME, 900) !== undefined);
    assert.equal(accounts.pruneSessions(LIFETIME, 1500), 1);
    assert.ok(accounts.session(kept.id, LIFETIME, 1500) !== undefined);
    assert.equal(accounts.session(dropped.id, LIFETIME, 1500), undefined);
  });

  it('rehashes a password made at a lower cost at its next login', async () => {
    const { db } = tempOriginDatabase(cleanups, 'desk-accounts-');
    await new AccountStore(db, TEST_SCRYPT).addUser('alice', PASSWORD);
    const before = db.prepare('SELECT password_hash FROM desk_users').pluck().get() as string;
    const raised = new AccountStore(db, { ...TEST_SCRYPT, logN: 11 });
    assert.ok((await raised.authenticate('alice', PASSWORD)) !== undefined);
    const now = db.prepare('SELECT password_hash FROM desk_users').pluck().get() as string;
    assert.match(before, /ln=10,/);
    assert.match(now, /ln=11,/);
    assert.ok((await raised.authenticate('alice', PASSWORD)) !== undefined);
  });

  it('takes about as long for an unknown name as for a wrong password', async () => {
    const { db } = tempOriginDatabase(cleanups, 'desk-accounts-');
    const accounts = new AccountStore(db, { logN: 14, r: 8, p: 1 });
    await accounts.addUser('alice', PASSWORD);
    await accounts.authenticate('nobody', 'warm up the decoy');
    const median = async (name: string) => {
      const times: number[] = [];
      for (let round = 0; round < 5; round++) {
        const start = performance.now();
        assert.equal(await accounts.authenticate(name, 'not the password'), undefined);
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[2] ?? 0;
    };
    const [known, unknown] = [await median('alice'), await median('nobody')];
    assert.ok(unknown > known * 0.5 && unknown < known * 2, `known ${known.toFixed(1)} ms, unknown ${unknown.toFixed(1)} ms`);
  });
});
