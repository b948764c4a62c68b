import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { describe, it } from 'node:test';
import { ERRORS } from './error-codes.js';
import { AppError, createError } from './errors.js';
import { sourceFiles } from './test-support/source-files.js';

describe('the error catalogue', () => {
  it('declares every code once, under its own name, with a valid HTTP error status', () => {
    const declarations = readFileSync(new URL('./error-codes.ts', import.meta.url), 'utf8').match(/^ {2}[A-Z][A-Z0-9_]*:/gm) ?? [];
    const names = declarations.map((line) => line.trim().slice(0, -1));
    assert.equal(new Set(names).size, names.length, 'a code declared twice');
    assert.deepEqual(names.sort(), Object.keys(ERRORS).sort());
    for (const [name, factory] of Object.entries(ERRORS)) {
      assert.equal(factory.code, name);
      assert.ok(factory.status >= 400 && factory.status <= 599 && STATUS_CODES[factory.status] !== undefined, `${name}: ${factory.status}`);
    }
  });

  it('builds AppErrors with the code, status, message and options of the entry', () => {
    const error = ERRORS.INDEX_NAME_INVALID.with({ details: { at: 1 } }, 'Bad');
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'INDEX_NAME_INVALID');
    assert.equal(error.status, 400);
    assert.match(error.message, /invalid index or alias name 'Bad'/);
    assert.deepEqual(error.details, { at: 1 });
    const cause = new Error('down');
    assert.equal(createError('X_FAILED', (what: string) => `${what} failed`, 502).with({ cause }, 'it').cause, cause);
  });

  it('knows every code a source file raises with a literal code', () => {
    for (const file of sourceFiles()) {
      for (const [, code] of readFileSync(file, 'utf8').matchAll(/new AppError\(\s*'([A-Z0-9_]+)'/g)) {
        assert.ok(code !== undefined && code in ERRORS, `${file}: ${code} is not in the catalogue`);
      }
    }
  });
});
