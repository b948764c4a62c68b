import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { normaliseUserName, PASSWORD_LIMITS, passwordProblem, userNameProblem } from './credentials.js';

describe('user name rules', () => {
  it('accepts lower-case ASCII names with inner dots, hyphens and underscores', () => {
    for (const name of ['a', 'alice', 'j.doe', 'ed_1', 'x-y', '9', 'a'.repeat(64)]) assert.equal(userNameProblem(name), undefined, name);
  });

  it('refuses empty, long, upper-case, non-ASCII, spaced and edge-punctuated names', () => {
    for (const name of ['', 'a'.repeat(65), 'Alice', 'аlice', 'al ice', '.alice', 'alice-', 'a\nb', 'a\u0000', '../etc', 'ali/ce', '😀']) {
      assert.match(userNameProblem(name) ?? '', /user name must be/, JSON.stringify(name));
    }
  });

  it('never accepts a name that holds anything but a-z, 0-9 and . _ - when given any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (name) => {
        if (userNameProblem(name) === undefined) assert.match(name, /^[a-z0-9._-]{1,64}$/);
      }),
    );
  });

  it('lower-cases what the login form is given', () => {
    assert.equal(normaliseUserName('Alice'), 'alice');
  });
});

describe('password rules', () => {
  it('accepts a long pass phrase and unicode ones', () => {
    for (const password of ['correct horse battery', 'Zwölf Boxkämpfer jagen', '漢字かなカナ交じりの合言葉です', 'x'.repeat(4) + 'abcdefgh']) {
      assert.equal(passwordProblem(password, 'alice'), undefined, password);
    }
  });

  it('refuses empty, short, over-long, repetitive, control-character and name-holding passwords', () => {
    const cases: [string, RegExp][] = [
      ['', /empty/],
      ['short1', /at least 12/],
      ['x'.repeat(PASSWORD_LIMITS.maxLength + 1), /at most 1024/],
      ['aaaaaaaaaaaaaaaa', /different characters/],
      ['abababcbcbcbcb', /different characters/],
      ['good password\nline two', /control/],
      ['good password\u0007', /control/],
      ['good \u202epassword', /control/],
      ['my name is Alice!', /user name/],
      ['Password1234', /well-known/],
      ['correct-horse-battery-staple', /well-known/],
    ];
    for (const [password, problem] of cases) assert.match(passwordProblem(password, 'alice') ?? '', problem, JSON.stringify(password.slice(0, 40)));
  });

  it('counts characters, not UTF-16 units, when the password is astral', () => {
    assert.match(passwordProblem('😀😁😂😃😄😅', 'alice') ?? '', /at least 12 characters, got 6/);
  });

  it('never repeats the password in its message and never throws when given any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 8, maxLength: 40 }), (password) => {
        const problem = passwordProblem(password, 'alice');
        if (problem !== undefined) assert.ok(!problem.includes(password));
      }),
    );
  });
});
