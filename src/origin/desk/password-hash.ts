import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { normalisePassword } from './credentials.js';

/** scrypt's cost: N = 2^logN, block size r, parallelism p. Memory used is 128 · N · r bytes. */
export interface ScryptParams {
  logN: number;
  r: number;
  p: number;
}

/**
 * OWASP's scrypt setting of N = 2^16, r = 8, p = 2: 64 MiB of memory per hash, about 0.2 s of one core here.
 * Stored with each hash, so raising it later rehashes a password at its next login.
 */
export const SCRYPT_DEFAULTS: ScryptParams = { logN: 16, r: 8, p: 2 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Highest cost a stored hash may ask for: a doctored row must not make a login allocate gigabytes. */
const MAX_LOG_N = 20;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.logN;
  return new Promise((resolve, reject) => {
    scrypt(normalisePassword(password), salt, KEY_BYTES, { N, r: params.r, p: params.p, maxmem: 256 * N * params.r + 1024 * 1024 }, (error, key) =>
      error === null ? resolve(key) : reject(error),
    );
  });
}

/** The hash of a password as stored: `$scrypt$ln=16,r=8,p=2$<salt>$<key>` (PHC string format, base64 without padding). */
export async function hashPassword(password: string, params: ScryptParams = SCRYPT_DEFAULTS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString('base64').replace(/=+$/, '')}$${key.toString('base64').replace(/=+$/, '')}`;
}

interface Parsed {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

const STORED = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;

function parse(stored: string): Parsed | undefined {
  const match = STORED.exec(stored);
  if (match === null) return undefined;
  const params = { logN: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (params.logN < 1 || params.logN > MAX_LOG_N || params.r < 1 || params.p < 1) return undefined;
  return { params, salt: Buffer.from(match[4] ?? '', 'base64'), key: Buffer.from(match[5] ?? '', 'base64') };
}

/** Whether `password` is the one `stored` was made from, compared in constant time. A malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === undefined) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  // scrypt keys HMAC with the password, and HMAC pads a short key with zero bytes: `pw` and `pw\0` hash alike. No
  // password may hold U+0000 (passwordProblem), so one that does matches nothing.
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key) && !password.includes('\u0000');
}

/** Whether a stored hash was made with a lower cost than `params`: it is replaced at the next successful login. */
export function needsRehash(stored: string, params: ScryptParams = SCRYPT_DEFAULTS): boolean {
  const parsed = parse(stored);
  if (parsed === undefined) return true;
  const { logN, r, p } = parsed.params;
  return logN < params.logN || r < params.r || p < params.p;
}
