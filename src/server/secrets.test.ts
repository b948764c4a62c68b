import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { silentLogger } from '../log.js';
import { readSharedSecrets, resolveSecrets, SECRETS_FILE } from './secrets.js';

const logger = silentLogger();
const fresh = () => mkdtempSync(join(tmpdir(), 'sitestack-secrets-'));
const unset = { purgeSecret: undefined, edgeRefreshSecret: undefined };

/** resolveSecrets in a process of its own, as `origin &`, `front &` and `edge` started together each call it. */
function resolveInChild(dataDir: string): Promise<string> {
  const module = fileURLToPath(new URL('./secrets.ts', import.meta.url));
  const script = `import { resolveSecrets } from ${JSON.stringify(module)}; import { silentLogger } from ${JSON.stringify(fileURLToPath(new URL('../log.ts', import.meta.url)))};
process.stdout.write(JSON.stringify(resolveSecrets({ dataDir: ${JSON.stringify(dataDir)}, purgeSecret: undefined, edgeRefreshSecret: undefined }, silentLogger())));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
  });
}

describe('resolveSecrets', () => {
  it('uses both variables as they are and writes nothing when both are set', () => {
    const dataDir = fresh();
    const set = { purgeSecret: 'purge-secret-set-by-hand', edgeRefreshSecret: 'edge-secret-set-by-hand' };
    assert.deepEqual(resolveSecrets({ dataDir, ...set }, logger), set);
    assert.equal(existsSync(join(dataDir, SECRETS_FILE)), false);
  });

  it('makes DATA_DIR/secrets.json, mode 0600, when a secret is unset, and reads the same secrets from it later', () => {
    const dataDir = join(fresh(), 'not-yet-made');
    const first = resolveSecrets({ dataDir, ...unset }, logger);
    assert.match(first.purgeSecret, /^[A-Za-z0-9_-]{32}$/);
    assert.match(first.edgeRefreshSecret, /^[A-Za-z0-9_-]{32}$/);
    assert.notEqual(first.purgeSecret, first.edgeRefreshSecret);
    const file = join(dataDir, SECRETS_FILE);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(resolveSecrets({ dataDir, ...unset }, logger), first);
    assert.deepEqual(readSharedSecrets(dataDir), first);
  });

  it('lets an explicitly set variable win over the file for its secret only', () => {
    const dataDir = fresh();
    const shared = resolveSecrets({ dataDir, ...unset }, logger);
    const mixed = resolveSecrets({ dataDir, purgeSecret: 'purge-secret-set-by-hand', edgeRefreshSecret: undefined }, logger);
    assert.deepEqual(mixed, { purgeSecret: 'purge-secret-set-by-hand', edgeRefreshSecret: shared.edgeRefreshSecret });
  });

  it('gives every process started at once on a fresh DATA_DIR the same secrets', async () => {
    const dataDir = fresh();
    const answers = await Promise.all(Array.from({ length: 4 }, () => resolveInChild(dataDir)));
    assert.equal(new Set(answers).size, 1, answers.join('\n'));
    assert.deepEqual(JSON.parse(answers[0] ?? ''), JSON.parse(readFileSync(join(dataDir, SECRETS_FILE), 'utf8')));
  });

  it('refuses a secrets file it cannot read as secrets, naming it and what to do', () => {
    const dataDir = fresh();
    const file = join(dataDir, SECRETS_FILE);
    for (const content of ['{', '{"purgeSecret":"x"}', '{"purgeSecret":"short","edgeRefreshSecret":"short"}']) {
      writeFileSync(file, content, { mode: 0o600 });
      assert.throws(() => resolveSecrets({ dataDir, ...unset }, logger), { code: 'SECRETS_FILE_INVALID', message: new RegExp(`${file}.*: remove it to have new secrets made`) });
    }
  });

  it('finds no shared secrets where no server made them', () => {
    assert.equal(readSharedSecrets(fresh()), undefined);
  });
});
