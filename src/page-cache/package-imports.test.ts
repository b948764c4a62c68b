import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
/** What the page cache may import besides its own files: it is to become a package of its own. */
const ALLOWED = /^(?:node:|lru-cache$)/;
/** The one file that reaches outside the folder, for the project's error catalogue. */
const SEAM = 'errors.ts';

function sources(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) =>
    item.isDirectory() ? sources(join(dir, item.name), `${prefix}${item.name}/`) : /\.tsx?$/.test(item.name) ? [`${prefix}${item.name}`] : [],
  );
}

describe('the page cache package', () => {
  it('imports only its own files, node: built-ins and lru-cache, but for the error catalogue in errors.ts', () => {
    const stray: string[] = [];
    for (const file of sources(here)) {
      const test = file.endsWith('.test.ts') || file.startsWith('test-support/');
      for (const [, from] of readFileSync(join(here, file), 'utf8').matchAll(/(?:^|\n)(?:import|export)[^'"]*?from '([^']+)'/g)) {
        const own = from!.startsWith('./') || (from!.startsWith('../') && file.includes('/') && !from!.startsWith('../../'));
        if (own || ALLOWED.test(from!) || (test && from === 'fast-check') || file === SEAM) continue;
        stray.push(`${file}: ${from}`);
      }
    }
    assert.deepEqual(stray, []);
  });
});
