/**
 * Moderation rules and how a comment is matched against them. Pure: no I/O. Text is compared after NFKC
 * normalisation and lower-casing (so `ＦＲＥＥ` is `free`), always literally: a rule's pattern is never read as a regular
 * expression, so `.*` or `(a+)+` in a rule matches those characters and costs no more than any other text.
 */
import { BlockList, isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { ERRORS } from '../../error-codes.js';
import { validProxyEntry } from '../../http/index.js';
import { isObject } from '../merge-patch.js';

export const RULE_KINDS = ['word', 'link', 'address'] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** `hold`: the comment is kept pending and flagged with the rule; `drop`: it is never stored (its sender is not told). */
export const RULE_ACTIONS = ['hold', 'drop'] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

/** The link rule's pattern that matches every comment holding a link. */
export const ANY_LINK = '*';

export const RULE_LIMITS = {
  /** Rules in the list at most: each comment is checked against every one. */
  count: 500,
  /** Characters of a word rule's pattern (after normalisation) and of a rule's note. */
  patternLength: 200,
  noteLength: 200,
} as const;

export interface RuleInput {
  kind: RuleKind;
  /** A word or phrase (word), a domain or `*` (link), an IP address or CIDR subnet (address); stored normalised. */
  pattern: string;
  action: RuleAction;
  /** Why the rule exists, for the editors. */
  note: string;
}

export interface Rule extends RuleInput {
  id: number;
  /** Milliseconds since the epoch. */
  created_at: number;
}

/** What a comment is checked for: its name and text, and the address it came from. */
export interface CommentSubject {
  name: string;
  comment: string;
  address: string;
}

export interface Verdict {
  action: 'keep' | RuleAction;
  /** The rule that decided: the first drop rule that matched, else the first hold rule. */
  rule?: Rule;
}

/** NFKC, lower case, and each run of white space as one space: the form both patterns and comments are compared in. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ');
}

const WORD_CHARACTER = /[\p{L}\p{N}\p{M}]/u;
// Scripts written without spaces between words: a word there has no boundary to find, so it matches anywhere.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

function boundaryAt(text: string, index: number, edge: string): boolean {
  const neighbour = text[index];
  if (neighbour === undefined || !WORD_CHARACTER.test(neighbour) || !WORD_CHARACTER.test(edge)) return true;
  return UNSPACED.test(neighbour) || UNSPACED.test(edge);
}

/**
 * Whether `text` (normalised) holds `word` (normalised) as a whole word or phrase: `ass` is not found in `class`, so a
 * rule does not hold innocent comments (the Scunthorpe problem). Found with indexOf: literal, linear.
 */
export function containsWord(text: string, word: string): boolean {
  if (word === '') return false;
  const first = word[0] as string;
  const last = word[word.length - 1] as string;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    if (boundaryAt(text, at - 1, first) && boundaryAt(text, at + word.length, last)) return true;
  }
  return false;
}

// A link as a reader's browser or mail program would make one: a scheme and `//`, or a host starting with `www.`.
const LINK = /(?:\b[a-z][a-z0-9+.-]{0,30}:\/\/|\bwww\.)[^\s/?#]+/giu;
// What separates host-like words (a.b, a.b.c …): anything but letters, digits, marks, dots and hyphens. Splitting on it
// is linear, where a regular expression for the words themselves backtracks over a long run of letters.
const NOT_HOST_CHARACTER = /[^\p{L}\p{N}\p{M}.-]+/u;

/** A word without the dots and hyphens at its ends (a sentence's full stop), by index: linear however long. */
function trimEdges(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && (word[start] === '.' || word[start] === '-')) start++;
  while (end > start && (word[end - 1] === '.' || word[end - 1] === '-')) end--;
  return word.slice(start, end);
}

/** The hosts a (normalised) text names, written as links or not (`spam.example` in plain text counts), in ASCII (IDNA); each once. */
export function hostsIn(text: string): string[] {
  const hosts = new Set<string>();
  for (const word of text.split(NOT_HOST_CHARACTER)) {
    const bare = trimEdges(word);
    if (!bare.includes('.') || bare.includes('..')) continue;
    const ascii = domainToASCII(bare);
    if (ascii !== '') hosts.add(ascii);
  }
  return [...hosts];
}

export function holdsLink(text: string): boolean {
  LINK.lastIndex = 0;
  return LINK.test(text);
}

/** Whether `host` is `domain` or under it (`a.example.com` is under `example.com`; `badexample.com` is not). */
function underDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** An IPv4-mapped IPv6 address as its IPv4 form, so one rule covers a client whichever way the socket spells it. */
function plainAddress(address: string): string {
  return /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1] ?? address;
}

function addressMatches(address: string, pattern: string): boolean {
  const candidate = plainAddress(address);
  const family = isIP(candidate);
  if (family === 0) return false;
  const list = new BlockList();
  const [base = '', bits] = pattern.split('/');
  const type = isIP(base) === 6 ? 'ipv6' : 'ipv4';
  if (bits === undefined) list.addAddress(base, type);
  else list.addSubnet(base, Number(bits), type);
  return list.check(candidate, family === 6 ? 'ipv6' : 'ipv4');
}

/** What the rules make of a comment: drop wins over hold, and among rules of one action the first (lowest id) decides. */
export function judge(subject: CommentSubject, rules: readonly Rule[]): Verdict {
  if (rules.length === 0) return { action: 'keep' };
  const text = normaliseText(`${subject.name}\n${subject.comment}`);
  let hosts: string[] | undefined;
  let held: Rule | undefined;
  for (const rule of rules) {
    let matched: boolean;
    if (rule.kind === 'word') matched = containsWord(text, rule.pattern);
    else if (rule.kind === 'address') matched = addressMatches(subject.address, rule.pattern);
    else if (rule.pattern === ANY_LINK) matched = holdsLink(text);
    else matched = (hosts ??= hostsIn(text)).some((host) => underDomain(host, rule.pattern));
    if (!matched) continue;
    if (rule.action === 'drop') return { action: 'drop', rule };
    held ??= rule;
  }
  return held === undefined ? { action: 'keep' } : { action: 'hold', rule: held };
}

const invalid = ERRORS.INVALID_INPUT;
const FIELDS = ['kind', 'pattern', 'action', 'note'];
// Control characters, line breaks and bidi overrides: a pattern is one line an editor must be able to read.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNREADABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function oneOf<T extends string>(record: Record<string, unknown>, name: string, values: readonly T[]): T {
  const value = record[name];
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalid(name, `must be one of ${values.join(', ')}, got ${JSON.stringify(typeof value === 'string' ? value.slice(0, 40) : typeof value)}`);
  }
  return value as T;
}

function line(record: Record<string, unknown>, name: string, maxLength: number, required: boolean): string {
  const value = record[name] ?? (required ? undefined : '');
  if (typeof value !== 'string') throw invalid(name, 'must be a string');
  if (UNREADABLE.test(value)) throw invalid(name, 'must be one line without control characters');
  const trimmed = value.trim();
  if (required && trimmed === '') throw invalid(name, 'must not be empty');
  if ([...trimmed].length > maxLength) throw invalid(name, `must be at most ${maxLength} characters`);
  return trimmed;
}

/** A domain as rules keep it: lower-case ASCII (IDNA), no scheme, path or trailing dot; undefined when it is none. */
export function normaliseDomain(value: string): string | undefined {
  const bare = normaliseText(value).replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#].*$/s, '').replace(/\.$/, '');
  if (!/^[^\s@:]+\.[^\s@:]+$/u.test(bare)) return undefined;
  const ascii = domainToASCII(bare);
  return ascii === '' || ascii.length > 253 ? undefined : ascii;
}

function pattern(kind: RuleKind, given: string): string {
  if (kind === 'word') {
    const word = normaliseText(given).trim();
    if (word === '' || [...word].length > RULE_LIMITS.patternLength) throw invalid('pattern', `must be 1 to ${RULE_LIMITS.patternLength} characters`);
    return word;
  }
  if (kind === 'link') {
    if (given === ANY_LINK) return ANY_LINK;
    const domain = normaliseDomain(given);
    if (domain === undefined) throw invalid('pattern', `of a link rule must be a domain such as example.com, or ${ANY_LINK} for any link`);
    return domain;
  }
  const address = given.toLowerCase();
  if (address === 'loopback' || !validProxyEntry(address)) throw invalid('pattern', 'of an address rule must be an IP address or a CIDR subnet such as 203.0.113.0/24');
  return address;
}

/** A rule from a request body (JSON or a desk form): every field checked, the pattern normalised as matching reads it. */
export function parseRuleInput(body: unknown): RuleInput {
  if (!isObject(body)) throw invalid('body', 'must be an object with kind, pattern, action and note');
  const unknown = Object.keys(body).filter((name) => !FIELDS.includes(name) && name !== '_csrf');
  if (unknown.length > 0) throw invalid('body', `has unknown field(s) ${unknown.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40))).join(', ')}`);
  const kind = oneOf(body, 'kind', RULE_KINDS);
  return {
    kind,
    pattern: pattern(kind, line(body, 'pattern', 300, true)),
    action: oneOf(body, 'action', RULE_ACTIONS),
    note: line(body, 'note', RULE_LIMITS.noteLength, false),
  };
}

/** A rule as the desk and the queue's badge word it: `word "free money" (hold)`. */
export function describeRule(rule: Pick<Rule, 'kind' | 'pattern'>): string {
  if (rule.kind === 'link') return rule.pattern === ANY_LINK ? 'any link' : `link to ${rule.pattern}`;
  return rule.kind === 'word' ? `word “${rule.pattern}”` : `address ${rule.pattern}`;
}
