import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { ERRORS } from '../error-codes.js';
import { AppError } from '../errors.js';
import { silentLogger } from '../log.js';
import { installErrorMapper } from './error-mapper.js';

async function appWith(handler: () => unknown) {
  const app = Fastify();
  installErrorMapper(app, silentLogger());
  app.get('/boom', async () => handler());
  app.post('/echo', async (request) => request.body);
  await app.ready();
  return app;
}

describe('installErrorMapper', () => {
  it('answers with the AppError status and code when a route throws one', async () => {
    const app = await appWith(() => {
      throw new AppError('SONG_NOT_FOUND', 'no song 7', 404);
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: 'no song 7', code: 'SONG_NOT_FOUND' });
  });

  it('answers the field errors as errors beside error and code when a route throws a checked request error', async () => {
    const fields = { size: [{ message: 'size must be from 1 to 100', code: 'out_of_range' }] };
    const app = await appWith(() => {
      throw ERRORS.INVALID_QUERY.with({ fields }, fields);
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { error: 'invalid query: size must be from 1 to 100', code: 'INVALID_QUERY', errors: fields });
  });

  it('answers 500 without the message when a route throws something else', async () => {
    const app = await appWith(() => {
      throw new TypeError('secret internals');
    });
    const response = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(response.statusCode, 500);
    assert.deepEqual(response.json(), { error: 'internal server error', code: 'INTERNAL' });
  });

  it('keeps a 4xx status when the body is malformed JSON', async () => {
    const app = await appWith(() => null);
    const response = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, 'FST_ERR_CTP_INVALID_JSON_BODY');
  });

  it('answers a JSON 404 when no route matches', async () => {
    const app = await appWith(() => null);
    const response = await app.inject({ method: 'GET', url: '/nope?x=<script>' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 'NOT_FOUND');
  });
});
