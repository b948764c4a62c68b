import { characterCount } from '../../http/index.js';

/**
 * A desk user's name: what the login form and the CLI take. Lower-case ASCII so that two names never look alike
 * (no `Alice`/`alice`, no Cyrillic `а` passing for Latin `a`); the login form lower-cases what is typed.
 */
export const USER_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;
export const USER_NAME_RULE = '1 to 64 characters of a-z, 0-9 and . _ -, starting and ending with a letter or digit';

/** Bounds of a password, counted in characters (code points after NFC normalisation). */
export const PASSWORD_LIMITS = { minLength: 12, maxLength: 1024, minDistinct: 5 } as const;

export const PASSWORD_RULE =
  `${PASSWORD_LIMITS.minLength} to ${PASSWORD_LIMITS.maxLength} characters, at least ${PASSWORD_LIMITS.minDistinct} of them different, ` +
  'no control characters, not containing the user name and not a well-known password';

/**
 * Passwords that meet the length rule and are still guessed first. Short on purpose: the length and variety rules do
 * most of the work; this catches the classics that pass them.
 */
const WELL_KNOWN = new Set([
  'password1234',
  'passwordpassword',
  'qwertyuiopasdf',
  'qwertyuiop123',
  '123456789abc',
  'abcdefghijkl',
  'iloveyou1234',
  'letmeinletmein',
  'administrator',
  'correcthorsebatterystaple',
  '1q2w3e4r5t6y',
  'q1w2e3r4t5y6',
]);

// C0, DEL and C1 controls, and the bidi overrides and isolates that make a typed password differ from the one shown.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** A user name as the login form and the CLI read it: lower-cased, so `Alice` logs in as `alice`. */
export function normaliseUserName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** What is wrong with a user name, or undefined when it is one. */
export function userNameProblem(name: string): string | undefined {
  return USER_NAME_PATTERN.test(name) ? undefined : `a user name must be ${USER_NAME_RULE}`;
}

/** The form a password is hashed in: NFC, so the same password typed on another keyboard or system matches. */
export function normalisePassword(password: string): string {
  return password.normalize('NFC');
}

/** What is wrong with a new password for `name`, or undefined when it may be set. Never repeats the password. */
export function passwordProblem(password: string, name: string): string | undefined {
  const text = normalisePassword(password);
  const length = characterCount(text);
  if (length === 0) return 'the password is empty';
  if (length < PASSWORD_LIMITS.minLength) return `the password must be at least ${PASSWORD_LIMITS.minLength} characters, got ${length}`;
  if (length > PASSWORD_LIMITS.maxLength) return `the password must be at most ${PASSWORD_LIMITS.maxLength} characters, got ${length}`;
  if (CONTROL.test(text)) return 'the password must not hold control characters or line breaks';
  if (new Set(text).size < PASSWORD_LIMITS.minDistinct) return `the password must have at least ${PASSWORD_LIMITS.minDistinct} different characters`;
  const lower = text.toLowerCase();
  if (name !== '' && lower.includes(name.toLowerCase())) return 'the password must not contain the user name';
  if (WELL_KNOWN.has(lower.replace(/[\s._-]/g, ''))) return 'the password is a well-known one: choose another';
  return undefined;
}
