import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const runtime = new Set(Object.keys(manifest.dependencies ?? {}));
const development = new Set(Object.keys(manifest.devDependencies ?? {}));

function sources(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? sources(join(dir, item.name), `${prefix}${item.name}/`) : /\.tsx?$/.test(item.name) ? [`${prefix}${item.name}`] : [],
  );
}

/** The package a bare specifier names: `lru-cache`, `@scope/name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

describe('the page cache package', () => {
  it('imports only its own files, node: built-ins and its declared dependencies (tests: dev dependencies too)', () => {
    const stray: string[] = [];
    for (const file of sources(here)) {
      const test = file.endsWith('.test.ts') || file.startsWith('test-support/');
      for (const [, from] of readFileSync(join(here, file), 'utf8').matchAll(/(?:^|\n)(?:import|export)[^'"]*?from '([^']+)'/g)) {
        const own = from!.startsWith('./') || (from!.startsWith('../') && file.includes('/') && !from!.startsWith('../../'));
        const declared = runtime.has(packageOf(from!)) || (test && development.has(packageOf(from!)));
        if (own || from!.startsWith('node:') || declared) continue;
        stray.push(`${file}: ${from}`);
      }
    }
    assert.deepEqual(stray, []);
  });
});
