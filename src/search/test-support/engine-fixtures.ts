import assert from 'node:assert/strict';
import { isAppError } from '../../errors.js';
import type { IndexedDocument } from '../engines/types.js';

/** A page of the engine tests: English, no summary, popularity 0. */
export const doc = (id: string, title: string, body = ''): IndexedDocument => ({
  id,
  url: `/${id}`,
  title,
  body,
  summary: '',
  popularity: 0,
  locale: 'en-US',
  slug: id,
});

/** An assert.rejects check that the error is the AppError `code` (with HTTP `status` when given). */
export const hasCode = (code: string, status?: number) => (error: unknown) => {
  assert.ok(isAppError(error), `expected an AppError ${code}, got ${String(error)}`);
  assert.equal(error.code, code);
  if (status !== undefined) assert.equal(error.status, status);
  return true;
};
