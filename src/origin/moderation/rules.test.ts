import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { isAppError } from '../../errors.js';
import { containsWord, describeRule, hostsIn, judge, normaliseDomain, normaliseText, parseRuleInput, type Rule, type RuleInput } from './rules.js';

let nextId = 1;
function rule(input: Partial<RuleInput> & Pick<RuleInput, 'kind' | 'pattern'>): Rule {
  const parsed = parseRuleInput({ action: 'hold', note: '', ...input });
  return { ...parsed, id: nextId++, created_at: 0 };
}

const subject = (comment: string, address = '198.51.100.7', name = 'Reader') => ({ name, comment, address });

// Fullwidth forms: NFKC maps each to its ASCII letter, as a spammer's "ＦＲＥＥ" is meant to read.
const fullwidth = (text: string) => [...text].map((c) => (/[a-z]/i.test(c) ? String.fromCodePoint(c.codePointAt(0)! - 0x21 + 0xff01) : c)).join('');

describe('moderation rules', () => {
  it('matches a word whatever its case and compatibility form when a comment spells it so', () => {
    const free = rule({ kind: 'word', pattern: 'free money' });
    for (const text of ['FREE money now', 'get Free   Money!', `${fullwidth('FREE')} ${fullwidth('money')}`, 'ｆｒｅｅ\nmoney']) {
      assert.equal(judge(subject(text), [free]).action, 'hold', text);
    }
    assert.equal(judge(subject('freedom money'), [free]).action, 'keep');
  });

  it('matches whole words only when the script separates words, and anywhere when it does not', () => {
    assert.equal(containsWord(normaliseText('a classic class'), 'ass'), false);
    assert.equal(containsWord(normaliseText('you ass.'), 'ass'), true);
    assert.equal(containsWord(normaliseText('这是广告内容'), '广告'), true);
    assert.equal(containsWord(normaliseText('Straße'), 'straße'), true);
  });

  it('finds a rule word in any case or compatibility variant of the text around it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,12}$/), fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), fc.boolean(), (word, before, after, wide) => {
        const shown = wide ? fullwidth(word.toUpperCase()) : word.toUpperCase();
        const text = `${before} ${shown} ${after}`;
        return judge(subject(text), [rule({ kind: 'word', pattern: word })]).action === 'hold';
      }),
    );
  });

  it('matches a rule literally when its pattern looks like a regular expression', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40, unit: fc.constantFrom(...'.*+?()[]{}|^$\\/ab ') }), (pattern) => {
        const trimmed = normaliseText(pattern).trim();
        fc.pre(trimmed !== '');
        const hostile = rule({ kind: 'word', pattern });
        // The pattern itself, between spaces, matches; text that a regex reading would match but that differs does not.
        assert.equal(judge(subject(` ${trimmed} `), [hostile]).action, 'hold');
        if (!trimmed.includes('ab') && trimmed !== 'a' && trimmed !== 'b') assert.equal(judge(subject('ab aab abab'), [hostile]).action, 'keep');
      }),
    );
  });

  it('judges a comment in linear time when its text is shaped to make matching backtrack', () => {
    const rules = [rule({ kind: 'word', pattern: '(a+)+$' }), rule({ kind: 'link', pattern: 'example.com' }), rule({ kind: 'link', pattern: '*' })];
    const hostile = ['a'.repeat(5_000), 'a-'.repeat(2_500), `${'-'.repeat(4_999)}a`, `${'.'.repeat(4_999)}a`, 'é'.repeat(5_000), `${'a'.repeat(4_999)}!`, 'www.'.repeat(1_250)];
    judge(subject('warm up'), rules);
    const started = performance.now();
    for (const text of hostile) judge(subject(text), rules);
    // Quadratic matching takes about 50 ms a text here; linear, well under 1 ms.
    assert.ok(performance.now() - started < 150, `${performance.now() - started} ms`);
  });

  it('matches a link rule on the domain and its subdomains when a comment links there or names it', () => {
    const domain = rule({ kind: 'link', pattern: 'https://Spam.Example/path' });
    assert.equal(domain.pattern, 'spam.example');
    for (const text of ['see https://spam.example/x', 'go to WWW.SPAM.EXAMPLE', 'shop.spam.example is great', `${fullwidth('spam')}．example`]) {
      assert.equal(judge(subject(text), [domain]).action, 'hold', text);
    }
    for (const text of ['notspam.example', 'spam.example.org', 'spam example']) assert.equal(judge(subject(text), [domain]).action, 'keep', text);
    const idn = rule({ kind: 'link', pattern: 'bücher.example' });
    assert.equal(idn.pattern, 'xn--bcher-kva.example');
    assert.equal(judge(subject('http://BÜCHER.example/'), [idn]).action, 'hold');
    assert.deepEqual(hostsIn('a.b and c.d.e'), ['a.b', 'c.d.e']);
  });

  it('matches the any-link rule on a scheme or www. and not on a dotted word when a comment holds one', () => {
    const any = rule({ kind: 'link', pattern: '*' });
    assert.equal(judge(subject('visit http://x.test'), [any]).action, 'hold');
    assert.equal(judge(subject('visit www.x.test'), [any]).action, 'hold');
    assert.equal(judge(subject('I like Node.js'), [any]).action, 'keep');
  });

  it('matches an address rule on the address or its subnet when the comment comes from there', () => {
    const one = rule({ kind: 'address', pattern: '203.0.113.9', action: 'drop' });
    const net = rule({ kind: 'address', pattern: '2001:DB8::/32' });
    assert.equal(judge(subject('hi', '203.0.113.9'), [one]).action, 'drop');
    assert.equal(judge(subject('hi', '::ffff:203.0.113.9'), [one]).action, 'drop');
    assert.equal(judge(subject('hi', '203.0.113.10'), [one]).action, 'keep');
    assert.equal(judge(subject('hi', '2001:db8:1::5'), [net]).action, 'hold');
    assert.equal(judge(subject('hi', ''), [one, net]).action, 'keep');
  });

  it('lets a drop rule win over an earlier hold rule when both match', () => {
    const hold = rule({ kind: 'word', pattern: 'casino' });
    const drop = rule({ kind: 'link', pattern: '*', action: 'drop' });
    const verdict = judge(subject('casino at http://x.test'), [hold, drop]);
    assert.equal(verdict.action, 'drop');
    assert.equal(verdict.rule?.id, drop.id);
    assert.equal(judge(subject('casino'), [hold, drop]).rule?.id, hold.id);
    assert.equal(describeRule(hold), 'word “casino”');
  });

  it('refuses a rule with a clear message when its fields are malformed, oversized or hostile', () => {
    const refused = (body: unknown, pattern: RegExp) =>
      assert.throws(() => parseRuleInput(body), (error: unknown) => isAppError(error) && error.status === 400 && pattern.test(error.message));
    refused(null, /body must be an object/);
    refused([], /body must be an object/);
    refused({ kind: 'regex', pattern: 'x', action: 'hold' }, /kind must be one of word, link, address, got "regex"/);
    refused({ kind: 'word', pattern: 'x', action: 'ban' }, /action must be one of hold, drop/);
    refused({ kind: 'word', pattern: '   ', action: 'hold' }, /pattern must not be empty/);
    refused({ kind: 'word', pattern: 'x'.repeat(301), action: 'hold' }, /pattern must be at most 300/);
    refused({ kind: 'word', pattern: 'ﷺ'.repeat(150), action: 'hold' }, /pattern must be 1 to 200 characters/);
    refused({ kind: 'word', pattern: 'a\u202eb', action: 'hold' }, /one line without control characters/);
    refused({ kind: 'word', pattern: 5, action: 'hold' }, /pattern must be a string/);
    refused({ kind: 'link', pattern: 'not a domain', action: 'hold' }, /a domain such as example.com/);
    refused({ kind: 'address', pattern: '10.0.0.0/33', action: 'hold' }, /IP address or a CIDR subnet/);
    refused({ kind: 'address', pattern: 'loopback', action: 'hold' }, /IP address or a CIDR subnet/);
    refused({ kind: 'word', pattern: 'x', action: 'hold', __proto__x: 1 }, /unknown field/);
    assert.equal(normaliseDomain('Ex.Example.'), 'ex.example');
  });
});
