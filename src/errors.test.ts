import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError, ConfigError, createError, errorBody, isAppError } from './errors.js';

describe('errorBody', () => {
  it('holds the message and the code, and the field errors only when there are some', () => {
    fc.assert(
      fc.property(fc.string(), fc.stringMatching(/^[A-Z][A-Z0-9_]{0,30}$/), fc.option(fc.dictionary(fc.string(), fc.array(fc.record({ message: fc.string(), code: fc.string() })))), (message, code, fields) => {
        const error = new AppError(code, message, 400, fields === null ? {} : { fields });
        const body = errorBody(error);
        assert.equal(body.error, message);
        assert.equal(body.code, code);
        if (fields === null) assert.deepEqual(Object.keys(body).sort(), ['code', 'error']);
        else assert.deepEqual(body.errors, fields);
      }),
    );
  });
});

describe('createError', () => {
  it('builds the class it is given when an entry names one', () => {
    const error = createError('SETTING_INVALID', (name: string) => `${name} is wrong`, 500, ConfigError)('PORT');
    assert.ok(error instanceof ConfigError && isAppError(error));
    assert.deepEqual([error.name, error.code, error.status, error.message], ['ConfigError', 'SETTING_INVALID', 500, 'PORT is wrong']);
  });

  it('carries the cause, details and fields given with `with`', () => {
    const cause = new Error('down');
    const fields = { q: [{ message: 'q is required', code: 'required' }] };
    const error = createError('X_FAILED', () => 'x failed', 400).with({ cause, details: { at: 1 }, fields });
    assert.equal(error.cause, cause);
    assert.deepEqual(error.details, { at: 1 });
    assert.deepEqual(error.fields, fields);
  });
});
