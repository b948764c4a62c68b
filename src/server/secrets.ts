import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSecret, type Config } from '../config.js';
import { ERRORS } from '../error-codes.js';
import type { Logger } from '../log.js';
import { ensureDataDir } from './data-dir.js';

/** The secrets every layer of one site must agree on. */
export interface SharedSecrets {
  /** Bearer secret of the fronts' `/__purge__` (origin's purge outbox, `sitestack purge`). */
  purgeSecret: string;
  /** The value of `secret-header` that makes the edge refresh a URL (the origin's edge purge sends it). */
  edgeRefreshSecret: string;
}

/** Where the secrets made for a DATA_DIR are kept, mode 0600. */
export const SECRETS_FILE = 'secrets.json';

type SecretsConfig = Pick<Config, 'dataDir' | 'purgeSecret' | 'edgeRefreshSecret'>;

function makeSecret(): string {
  return randomBytes(24).toString('base64url');
}

function readSecretsFile(file: string): SharedSecrets {
  const invalid = (why: string) => ERRORS.SECRETS_FILE_INVALID(file, why);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw invalid('is not JSON');
  }
  const { purgeSecret, edgeRefreshSecret } = (parsed ?? {}) as Partial<Record<keyof SharedSecrets, unknown>>;
  if (typeof purgeSecret !== 'string' || typeof edgeRefreshSecret !== 'string') throw invalid('lacks purgeSecret or edgeRefreshSecret');
  try {
    return { purgeSecret: parseSecret('purgeSecret', purgeSecret), edgeRefreshSecret: parseSecret('edgeRefreshSecret', edgeRefreshSecret) };
  } catch (error) {
    throw invalid(`holds a bad secret (${(error as Error).message})`);
  }
}

/**
 * Whichever process comes first writes the file whole under a name of its own and links it in place: a link fails
 * when the name exists, so processes started together (`origin & front & edge`) all end up reading the one winner.
 */
function createSecretsFile(file: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ purgeSecret: makeSecret(), edgeRefreshSecret: makeSecret() }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
}

/**
 * The purge secret and the edge refresh secret of this site: each explicitly set variable (`PURGE_SECRET`,
 * `EDGE_REFRESH_SECRET`) wins; an unset one comes from `DATA_DIR/secrets.json`, made (0600, atomically) by the
 * first process that needs it. Every command of one DATA_DIR (`start`, `origin`, `front`, `edge`, `purge`) thus shares
 * them with no set-up, and they survive restarts, so a purge outbox's queued jobs stay deliverable.
 */
export function resolveSecrets(config: SecretsConfig, logger: Logger): SharedSecrets {
  const { purgeSecret, edgeRefreshSecret } = config;
  if (purgeSecret !== undefined && edgeRefreshSecret !== undefined) return { purgeSecret, edgeRefreshSecret };
  ensureDataDir(config.dataDir);
  const file = join(config.dataDir, SECRETS_FILE);
  let created = false;
  try {
    statSync(file);
  } catch {
    createSecretsFile(file);
    created = true;
  }
  const shared = readSecretsFile(file);
  if ((statSync(file).mode & 0o077) !== 0) logger.warn({ file }, `${SECRETS_FILE} can be read by other users: chmod 600 it`);
  const unset = [purgeSecret === undefined ? 'PURGE_SECRET' : undefined, edgeRefreshSecret === undefined ? 'EDGE_REFRESH_SECRET' : undefined].filter(Boolean);
  // Said once per DATA_DIR at info; every later start reads the same file without a word.
  logger[created ? 'info' : 'debug']({ file }, `${unset.join(' and ')} unset: ${created ? 'made' : 'using'} the shared secrets of ${file}`);
  return { purgeSecret: purgeSecret ?? shared.purgeSecret, edgeRefreshSecret: edgeRefreshSecret ?? shared.edgeRefreshSecret };
}

/**
 * The secrets of `DATA_DIR/secrets.json` when a server made it, without making one: for `sitestack purge`, whose
 * purge needs the secret the fronts already use.
 */
export function readSharedSecrets(dataDir: string): SharedSecrets | undefined {
  const file = join(dataDir, SECRETS_FILE);
  try {
    statSync(file);
  } catch {
    return undefined;
  }
  return readSecretsFile(file);
}

/** `config` with both secrets resolved (resolveSecrets), for the commands whose parts read them from the config. */
export function withSharedSecrets<C extends SecretsConfig>(config: C, logger: Logger): C & SharedSecrets {
  return { ...config, ...resolveSecrets(config, logger) };
}
