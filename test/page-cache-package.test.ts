import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startExampleServer, type ExampleServer } from './support/example-server.js';

const PACKAGE_DIR = resolve('packages/page-cache');
/** The tarball and the app run as a user's would: without the test runner's condition that loads TypeScript sources. */
const USER_ENV = { ...process.env, NODE_OPTIONS: '' };

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, env: USER_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

interface InstalledManifest {
  name: string;
  scripts?: Record<string, string>;
  gypfile?: boolean;
}

function installedManifests(nodeModules: string): InstalledManifest[] {
  const manifests: InstalledManifest[] = [];
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    const dirs = entry.startsWith('@') ? readdirSync(join(nodeModules, entry)).map((name) => join(entry, name)) : [entry];
    for (const dir of dirs) manifests.push(JSON.parse(readFileSync(join(nodeModules, dir, 'package.json'), 'utf8')) as InstalledManifest);
  }
  return manifests;
}

describe('the page cache package tarball', () => {
  const folder = mkdtempSync(join(tmpdir(), 'page-cache-package-'));
  const app = join(folder, 'app');
  let server: ExampleServer | undefined;

  before(() => {
    const tarball = npm(['pack', '--silent', '--pack-destination', folder], PACKAGE_DIR).trim().split('\n').pop()!;
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    // The npm cache holds lru-cache after the project's own install, so this needs no network.
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, tarball)], app);
  });
  after(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('installs into an empty folder with at most three packages, no install scripts and no native build', () => {
    const manifests = installedManifests(join(app, 'node_modules'));
    assert.deepEqual(manifests.map((manifest) => manifest.name).sort(), ['@sitestack/page-cache', 'lru-cache']);
    for (const manifest of manifests) {
      assert.equal(manifest.gypfile, undefined, `${manifest.name} builds native code`);
      for (const hook of ['preinstall', 'install', 'postinstall']) assert.equal(manifest.scripts?.[hook], undefined, `${manifest.name} runs ${hook}`);
    }
  });

  it('ships ESM with type declarations and nothing of sitestack but its own files', () => {
    const root = join(app, 'node_modules', '@sitestack', 'page-cache');
    assert.ok(existsSync(join(root, 'dist', 'index.js')));
    assert.ok(existsSync(join(root, 'dist', 'index.d.ts')));
    const files = readdirSync(join(root, 'dist'));
    assert.deepEqual(files.filter((file) => file.includes('.test.') || file === 'test-support'), []);
    assert.ok(!existsSync(join(root, 'src')), 'sources stay out of the tarball');
  });

  it('serves an Express app from the installed tarball: a miss, then a hit, then a miss after a purge', async () => {
    // Express is the project's; the page cache is the one installed in the app's folder.
    const express = pathToFileURL(createRequire(join(process.cwd(), 'package.json')).resolve('express')).href;
    writeFileSync(
      join(app, 'server.mjs'),
      [
        `import express from ${JSON.stringify(express)};`,
        "import { createPageCache } from '@sitestack/page-cache';",
        'const cache = createPageCache({ purgeSecret: process.env.PURGE_SECRET });',
        'let renders = 0;',
        'const app = express();',
        'app.use(cache.handle);',
        "app.get('/{*path}', (req, res) => { renders += 1; res.type('html').send(`render ${renders}`); });",
        "const server = app.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));",
      ].join('\n'),
    );
    server = await startPlainNode(join(app, 'server.mjs'));
    const first = await fetch(`${server.url}/page`);
    const second = await fetch(`${server.url}/page`);
    assert.equal(first.headers.get('x-middleware-cache'), 'miss');
    assert.equal(second.headers.get('x-middleware-cache'), 'hit');
    assert.equal(await second.text(), await first.text());
    const purge = await fetch(`${server.url}/__purge__`, { method: 'POST', headers: { authorization: 'Bearer s3cret', 'content-type': 'application/json' }, body: '{"pathnames":["/page"]}' });
    assert.deepEqual(await purge.json(), { purged: ['/page'] });
    assert.equal(await (await fetch(`${server.url}/page`)).text(), 'render 2');
  });

  function startPlainNode(file: string): Promise<ExampleServer> {
    return startExampleServer(file, { PURGE_SECRET: 's3cret', NODE_OPTIONS: '' }, { cwd: app, loader: false });
  }
});
