import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { engineContractTests } from './contract.js';
import { SqliteEngine } from './sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'sitestack-sqlite-engine-'));
after(() => rmSync(dir, { recursive: true, force: true }));

engineContractTests('sqlite', async () => new SqliteEngine({ path: join(dir, 'search.sqlite') }));
