import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_SONGS } from '../demo-songs.js';
import { startAmazonStandIn } from '../test-support/amazon-stand-in.js';
import { standInCatalogue } from '../test-support/catalogue.js';
import type { StandIn } from '../test-support/stand-in.js';
import type { Song } from '../types.js';
import { createAmazonProvider, SEARCH_ITEMS_PATH, SEARCH_ITEMS_TARGET } from './amazon.js';
import { amzDate, signatureV4 } from './sigv4.js';

const KEY = { accessKey: 'AKIDSTANDIN', secretKey: 'stand-in/secret+key', partnerTag: 'sitestack-20' };
const QUEEN = DEMO_SONGS[0] as Song;

describe('amazon provider against the signature-checking stand-in', () => {
  let standIn: StandIn;
  before(async () => {
    standIn = await startAmazonStandIn({ tracks: standInCatalogue(DEMO_SONGS), keys: { [KEY.accessKey]: KEY.secretKey }, partnerTag: KEY.partnerTag, region: 'us-east-1' });
  });
  after(() => standIn.close());

  const lookupWith = (overrides: Partial<Parameters<typeof createAmazonProvider>[0]>) =>
    createAmazonProvider({ ...KEY, baseUrl: standIn.url, region: 'us-east-1', ...overrides }).lookup(QUEEN, { signal: AbortSignal.timeout(2_000) });

  it('fails with the InvalidSignature code when the secret is wrong', async () => {
    await assert.rejects(lookupWith({ secretKey: 'not-the-secret' }), (error: Error & { status?: number; details?: unknown }) => {
      assert.equal(error.status, 502);
      assert.deepEqual(error.details, { status: 401, codes: ['InvalidSignature'] });
      return true;
    });
    assert.equal(standIn.searches, 0, 'a badly signed request never reaches the search');
  });

  it('fails with the InvalidSignature code when signed for another region', async () => {
    await assert.rejects(lookupWith({ region: 'eu-west-1' }), { details: { status: 401, codes: ['InvalidSignature'] } });
  });

  it('fails with the UnrecognizedClient code when the access key is unknown', async () => {
    await assert.rejects(lookupWith({ accessKey: 'AKIDUNKNOWN' }), { details: { status: 401, codes: ['UnrecognizedClient'] } });
  });

  it('fails with the InvalidPartnerTag code when the partner tag is wrong', async () => {
    await assert.rejects(lookupWith({ partnerTag: 'someone-else-20' }), { details: { status: 400, codes: ['InvalidPartnerTag'] } });
  });

  it('links to the detail page carrying the partner tag', async () => {
    const answer = await lookupWith({});
    assert.match(answer.match?.url ?? '', /[?&]tag=sitestack-20(&|$)/);
  });

  it('answers 401 InvalidSignature when a signed request is replayed with another body', async () => {
    const headers: Record<string, string> = {
      'content-encoding': 'amz-1.0',
      'content-type': 'application/json; charset=utf-8',
      host: new URL(standIn.url).host,
      'x-amz-date': amzDate(new Date()),
      'x-amz-target': SEARCH_ITEMS_TARGET,
    };
    const body = JSON.stringify({ Keywords: 'Queen', PartnerTag: KEY.partnerTag, PartnerType: 'Associates' });
    const { authorization } = await signatureV4({ method: 'POST', path: SEARCH_ITEMS_PATH, headers, body }, { ...KEY, region: 'us-east-1', service: 'ProductAdvertisingAPI' });
    delete headers.host;
    const send = (payload: string) => fetch(`${standIn.url}${SEARCH_ITEMS_PATH}`, { method: 'POST', headers: { ...headers, authorization }, body: payload });
    assert.equal((await send(body)).status, 200);
    const tampered = await send(body.replace('Queen', 'Abba'));
    assert.equal(tampered.status, 401);
    assert.deepEqual(((await tampered.json()) as { Errors: { Code: string }[] }).Errors.map((error) => error.Code), ['InvalidSignature']);
  });

  it('answers 400 IncompleteSignature when the request is not signed', async () => {
    const response = await fetch(`${standIn.url}${SEARCH_ITEMS_PATH}`, {
      method: 'POST',
      headers: { 'content-encoding': 'amz-1.0', 'x-amz-target': SEARCH_ITEMS_TARGET, 'x-amz-date': amzDate(new Date()) },
      body: '{}',
    });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as { __type: string }).__type, 'com.amazon.paapi5#IncompleteSignatureException');
  });
});

describe('amazon provider answers', () => {
  it('treats a NoResults error as a null match whatever the status', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"Errors":[{"__type":"com.amazon.paapi#ErrorData","Code":"NoResults","Message":"No results found for your request."}]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await createAmazonProvider({ ...KEY, baseUrl: `http://127.0.0.1:${port}` }).lookup(QUEEN, { signal: AbortSignal.timeout(2_000) });
      assert.equal(answer.match, null);
      assert.deepEqual(answer.raw, { Errors: [{ __type: 'com.amazon.paapi#ErrorData', Code: 'NoResults', Message: 'No results found for your request.' }] });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
