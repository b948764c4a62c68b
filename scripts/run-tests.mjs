#!/usr/bin/env node
// Node 20's test runner takes no globs, so the test files are collected here.
// Arguments narrow the run to files whose path contains any of them.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = ['src', 'test', 'bench', 'packages']
  .filter((root) => existsSync(root))
  .flatMap((root) => collect(root, []))
  .filter((file) => filters.length === 0 || filters.some((filter) => file.includes(filter)))
  .sort();

if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

// Workspace packages are loaded from their TypeScript sources (their exports' `sitestack-source` condition), so a
// change to one is tested without building it first; child processes started by tests inherit the condition.
function withSourceCondition(options = '') {
  return options.includes('--conditions=sitestack-source') ? options : `${options} --conditions=sitestack-source`.trim();
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test', NODE_OPTIONS: withSourceCondition(process.env.NODE_OPTIONS) } },
);
process.exit(result.status ?? 1);
