import { createHash, createHmac } from 'node:crypto';

/** A request to sign with AWS Signature Version 4. Header names are matched case-insensitively. */
export interface SignableRequest {
  method: string;
  /** The path as sent, already URI-encoded. */
  path: string;
  /** The query string as sent, without `?`; empty when none. */
  query?: string;
  headers: Record<string, string>;
  body: string;
}

export interface SigningKey {
  accessKey: string;
  secretKey: string;
  region: string;
  service: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';

function sha256Hex(data: string): string {
  return createHash('sha256').update(data, 'utf8').digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** `20150830T123600Z` for a date. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function canonicalQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const [name = '', value = ''] = pair.split('=');
      return [name, value] as const;
    })
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The canonical request and the names of the signed headers, as SigV4 defines them (every given header is signed). */
export function canonicalRequest(request: SignableRequest): { canonical: string; signedHeaders: string } {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, ' ')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const signedHeaders = headers.map(([name]) => name).join(';');
  const canonical = [
    request.method.toUpperCase(),
    request.path === '' ? '/' : request.path,
    canonicalQuery(request.query ?? ''),
    headers.map(([name, value]) => `${name}:${value}\n`).join(''),
    signedHeaders,
    sha256Hex(request.body),
  ].join('\n');
  return { canonical, signedHeaders };
}

/**
 * Signs `request` (which must carry `host` and `x-amz-date` headers) and returns the `Authorization` header value.
 * Pure: the time is the request's `x-amz-date`.
 */
export function signatureV4(request: SignableRequest, key: SigningKey): { authorization: string; signature: string } {
  const date = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'x-amz-date')?.[1];
  if (date === undefined || !/^\d{8}T\d{6}Z$/.test(date)) throw new Error('a SigV4 request needs an x-amz-date header such as 20150830T123600Z');
  const day = date.slice(0, 8);
  const scope = `${day}/${key.region}/${key.service}/aws4_request`;
  const { canonical, signedHeaders } = canonicalRequest(request);
  const stringToSign = [ALGORITHM, date, scope, sha256Hex(canonical)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${key.secretKey}`, day), key.region), key.service), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  return {
    signature,
    authorization: `${ALGORITHM} Credential=${key.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

export interface ParsedAuthorization {
  accessKey: string;
  day: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

/** Reads a SigV4 `Authorization` header; undefined when it is not one. */
export function parseAuthorization(header: string): ParsedAuthorization | undefined {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(header);
  if (match === null) return undefined;
  const [, accessKey = '', day = '', region = '', service = '', signed = '', signature = ''] = match;
  return { accessKey, day, region, service, signedHeaders: signed.split(';'), signature };
}
