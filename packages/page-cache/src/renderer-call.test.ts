import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerFailure, callRenderer } from './renderer-call.js';
import { fakeResponse, keptLog } from './test-support/fake-http.js';

describe('callRenderer', () => {
  it('lets the renderer answer when it neither throws nor rejects', async () => {
    const { res, sent } = fakeResponse();
    const { logger, lines } = keptLog();
    callRenderer(res, () => Promise.resolve(res.end()), logger);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual([sent.status, sent.ended, lines.length], [undefined, true, 0]);
  });

  it('answers 500 and logs when the renderer throws before sending anything', () => {
    const { res, sent } = fakeResponse();
    const { logger, lines } = keptLog();
    callRenderer(res, () => {
      throw new TypeError('broken');
    }, logger);
    assert.deepEqual([sent.status, sent.body?.toString()], [500, 'Internal Server Error']);
    assert.deepEqual(lines.map((line) => line.message), ['page cache: the renderer failed']);
  });

  it('answers 500 when the promise the renderer returns rejects', async () => {
    const { res, sent } = fakeResponse();
    callRenderer(res, () => Promise.reject(new Error('late')), keptLog().logger);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent.status, 500);
  });
});

describe('answerFailure', () => {
  it('cuts the response short when its head has gone out already', () => {
    const { res, sent } = fakeResponse();
    res.writeHead(200, {});
    const { logger, lines } = keptLog();
    answerFailure(res, logger, new Error('midway'), 'the purge route failed');
    assert.deepEqual([sent.status, sent.destroyed], [200, true]);
    assert.deepEqual(lines.map((line) => line.message), ['page cache: the purge route failed']);
  });

  it('leaves an ended response alone but for the log line', () => {
    const { res, sent } = fakeResponse();
    res.writeHead(200, {});
    res.end();
    answerFailure(res, keptLog().logger, new Error('after'));
    assert.equal(sent.destroyed, false);
  });
});
