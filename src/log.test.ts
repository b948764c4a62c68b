import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from './log.js';

describe('createLogger', () => {
  it('writes JSON lines when stderr is not a terminal', () => {
    const logger = createLogger('info', 'sitestack', false);
    assert.equal(logger.isLevelEnabled('info'), true);
    assert.equal(logger.isLevelEnabled('debug'), false);
  });

  it('makes a pino-pretty logger when stderr is a terminal', () => {
    const logger = createLogger('warn', 'sitestack', true);
    assert.equal(logger.isLevelEnabled('warn'), true);
    assert.equal(logger.isLevelEnabled('info'), false);
  });
});
