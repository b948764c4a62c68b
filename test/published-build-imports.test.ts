import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The source files `npm run build` compiles into dist/, as tsconfig.build.json selects them. */
function publishedSources(): string[] {
  const path = join(repo, 'tsconfig.build.json');
  const { config } = ts.readConfigFile(path, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, repo, undefined, path).fileNames.map((file) => relative(repo, file));
}

/** The module specifiers a source file imports or re-exports, static or dynamic. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((match) => match[1] as string);
}

const TEST_ONLY = [/^node:test$/, /^fast-check$/, /(^|\/)test-support\//];

describe('the published build', () => {
  const sources = publishedSources();

  it('compiles the project sources when built', () => {
    assert.ok(sources.includes('src/cli.ts'), 'src/cli.ts is built');
    assert.ok(sources.length > 50, `${sources.length} files`);
  });

  it('holds no test, contract suite, corpus or stand-in when tsconfig.build.json selects its files', () => {
    const testOnly = sources.filter((file) => /\.test\.tsx?$/.test(file) || /(^|\/)test-support\//.test(file) || /^contract|corpus|^fake-/.test(basename(file)));
    assert.deepEqual(testOnly, []);
  });

  it('imports neither node:test, fast-check nor a test-support module from any file it compiles', () => {
    const offending = sources.flatMap((file) => importsOf(file).filter((specifier) => TEST_ONLY.some((rule) => rule.test(specifier))).map((specifier) => `${file} imports ${specifier}`));
    assert.deepEqual(offending, []);
  });
});
