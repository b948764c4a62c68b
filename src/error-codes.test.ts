import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { describe, it } from 'node:test';
import { ERRORS } from './error-codes.js';
import { AppError, ConfigError, createError } from './errors.js';
import { ERROR_SAMPLES } from './test-support/error-samples.js';
import { sourceFiles } from './test-support/source-files.js';

/** Source files that are production code: tests, their support and the engine contract suites left out. */
function productionFiles(): string[] {
  return sourceFiles().filter((file) => !/\/test-support\//.test(file) && !/\.test\.tsx$/.test(file) && !readFileSync(file, 'utf8').includes("from 'node:test'"));
}

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

  it('renders every template into a sentence without holes when given the values of its throw sites', () => {
    for (const [name, args] of Object.entries(ERROR_SAMPLES)) {
      const factory = (ERRORS as Record<string, (...values: unknown[]) => AppError>)[name];
      assert.ok(factory !== undefined, `${name} has a sample but no entry`);
      const { message, code } = factory(...args);
      assert.equal(code, name);
      assert.ok(message.trim().length > 0, `${name}: empty message`);
      assert.doesNotMatch(message, /undefined|\[object Object\]|NaN/, `${name}: ${message}`);
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

  it('builds a ConfigError for a configuration entry, so a caller can tell it apart', () => {
    const error = ERRORS.CONFIG_INVALID('PORT', 'a port number', 'abc');
    assert.ok(error instanceof ConfigError);
    assert.equal(error.name, 'ConfigError');
    assert.equal(error.message, "expected PORT to be a port number, got 'abc'");
    assert.equal(ERRORS.CONFIG_INVALID('SECRET', 'long', { withheldLength: 3 }).message, 'expected SECRET to be long, got a value of 3 characters');
  });

  it('knows every code a source file raises with a literal code', () => {
    for (const file of sourceFiles()) {
      for (const [, code] of readFileSync(file, 'utf8').matchAll(/new AppError\(\s*'([A-Z0-9_]+)'/g)) {
        assert.ok(code !== undefined && code in ERRORS, `${file}: ${code} is not in the catalogue`);
      }
    }
  });

  it('is the only place a code is written when production code names one', () => {
    for (const file of productionFiles()) {
      if (file.endsWith('/error-codes.ts')) continue;
      const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const [literal, , code] of text.matchAll(/(['"`])([A-Z][A-Z0-9_]*)\1/g)) {
        assert.ok(code === undefined || !(code in ERRORS), `${file}: ${literal} is a literal error code; name ERRORS.${code} instead`);
      }
    }
  });

  it('is what production code raises instead of a bare Error', () => {
    for (const file of productionFiles()) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, at) => {
        if (!/\bnew (Error|TypeError|RangeError)\(/.test(line)) return;
        const allowed = /eslint-disable-next-line no-restricted-syntax -- \S/.test(lines[at - 1] ?? '');
        assert.ok(allowed, `${file}:${at + 1}: a bare Error; raise ERRORS.SOME_CODE(...), or say why it stays`);
      });
    }
  });
});
