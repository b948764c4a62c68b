import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, needsRehash, verifyPassword } from './password-hash.js';
import { TEST_SCRYPT } from './test-support/desk-client.js';

describe('password hashes', () => {
  it('store the scrypt parameters and a salt of their own when made', async () => {
    const [one, two] = [await hashPassword('a pass phrase', TEST_SCRYPT), await hashPassword('a pass phrase', TEST_SCRYPT)];
    assert.match(one, /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.notEqual(one, two);
  });

  it('match the password they were made from and no other', async () => {
    const stored = await hashPassword('a pass phrase', TEST_SCRYPT);
    assert.equal(await verifyPassword('a pass phrase', stored), true);
    assert.equal(await verifyPassword('a pass phrasE', stored), false);
    assert.equal(await verifyPassword('', stored), false);
  });

  it('match no password with a trailing NUL, which HMAC key padding would make equal', async () => {
    const stored = await hashPassword('a pass phrase', TEST_SCRYPT);
    assert.equal(await verifyPassword('a pass phrase\u0000', stored), false);
    assert.equal(await verifyPassword('a pass phrase\u0000\u0000', stored), false);
  });

  it('match a password typed in another Unicode normal form', async () => {
    const stored = await hashPassword('Zwölf Boxkämpfer', TEST_SCRYPT);
    assert.equal(await verifyPassword('Zwo\u0308lf Boxka\u0308mpfer', stored), true);
  });

  it('match nothing when the stored hash is malformed or asks for an absurd cost', async () => {
    for (const stored of ['', 'plain', '$scrypt$ln=40,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '$argon2id$v=19$m=1']) {
      assert.equal(await verifyPassword('x', stored), false, stored);
    }
  });

  it('need rehashing when made with a lower cost than the current one', async () => {
    const stored = await hashPassword('a pass phrase', TEST_SCRYPT);
    assert.equal(needsRehash(stored, TEST_SCRYPT), false);
    assert.equal(needsRehash(stored, { ...TEST_SCRYPT, logN: 11 }), true);
    assert.equal(needsRehash('garbage', TEST_SCRYPT), true);
  });
});
