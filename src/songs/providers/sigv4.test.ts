import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { amzDate, parseAuthorization, signatureV4 } from './sigv4.js';

// Vectors of AWS's published Signature Version 4 test suite and its IAM ListUsers walk-through.
const EXAMPLE_KEY = { accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };

describe('signatureV4', () => {
  it('reproduces the get-vanilla vector of the AWS test suite', async () => {
    const { authorization } = await signatureV4(
      { method: 'GET', path: '/', headers: { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' }, body: '' },
      { ...EXAMPLE_KEY, service: 'service' },
    );
    assert.equal(
      authorization,
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it('reproduces the post-vanilla vector of the AWS test suite', async () => {
    const { signature } = await signatureV4(
      { method: 'POST', path: '/', headers: { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' }, body: '' },
      { ...EXAMPLE_KEY, service: 'service' },
    );
    assert.equal(signature, '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b');
  });

  it('reproduces the IAM ListUsers example with a query string and a content type', async () => {
    const { signature } = await signatureV4(
      {
        method: 'GET',
        path: '/',
        query: 'Version=2010-05-08&Action=ListUsers',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', host: 'iam.amazonaws.com', 'x-amz-date': '20150830T123600Z' },
        body: '',
      },
      { ...EXAMPLE_KEY, service: 'iam' },
    );
    assert.equal(signature, '5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7');
  });

  it('changes the signature when the body, a signed header or the secret changes', async () => {
    const request = { method: 'POST', path: '/paapi5/searchitems', headers: { host: 'h', 'x-amz-date': '20260101T000000Z', 'x-amz-target': 't' }, body: '{}' };
    const key = { ...EXAMPLE_KEY, service: 'ProductAdvertisingAPI' };
    const base = (await signatureV4(request, key)).signature;
    assert.notEqual((await signatureV4({ ...request, body: '{ }' }, key)).signature, base);
    assert.notEqual((await signatureV4({ ...request, headers: { ...request.headers, 'x-amz-target': 'u' } }, key)).signature, base);
    assert.notEqual((await signatureV4(request, { ...key, secretKey: 'other' })).signature, base);
  });

  it('refuses to sign when x-amz-date is missing', async () => {
    await assert.rejects(signatureV4({ method: 'GET', path: '/', headers: { host: 'h' }, body: '' }, { ...EXAMPLE_KEY, service: 's' }), /x-amz-date/);
  });
});

describe('amzDate', () => {
  it('formats a date as the basic ISO 8601 form SigV4 uses', () => {
    assert.equal(amzDate(new Date('2015-08-30T12:36:00.123Z')), '20150830T123600Z');
  });
});

describe('parseAuthorization', () => {
  it('reads back what signatureV4 writes', async () => {
    const { authorization, signature } = await signatureV4(
      { method: 'GET', path: '/', headers: { host: 'h', 'x-amz-date': '20150830T123600Z' }, body: '' },
      { ...EXAMPLE_KEY, service: 'ProductAdvertisingAPI' },
    );
    assert.deepEqual(parseAuthorization(authorization), {
      accessKey: 'AKIDEXAMPLE',
      day: '20150830',
      region: 'us-east-1',
      service: 'ProductAdvertisingAPI',
      signedHeaders: ['host', 'x-amz-date'],
      signature,
    });
  });

  it('answers undefined for headers that are not SigV4', () => {
    for (const header of ['', 'Bearer abc', 'AWS4-HMAC-SHA256 Credential=a/b', `AWS4-HMAC-SHA256 Credential=A/20150830/us-east-1/s/aws4_request, SignedHeaders=host, Signature=${'z'.repeat(64)}`]) {
      assert.equal(parseAuthorization(header), undefined, header);
    }
  });
});
