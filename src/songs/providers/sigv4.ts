import { ERRORS } from '../../error-codes.js';
import { Hash } from '@smithy/hash-node';
import { SignatureV4 } from '@smithy/signature-v4';

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

/** `20150830T123600Z` for a date. */
export function amzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

function queryOf(query: string): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const earlier = values[name];
    values[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return values;
}

/**
 * Signs `request` (which must carry `host` and `x-amz-date` headers) with AWS's own signer and returns the
 * `Authorization` header value. Pure: the time is the request's `x-amz-date`.
 */
export async function signatureV4(request: SignableRequest, key: SigningKey): Promise<{ authorization: string; signature: string }> {
  const date = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'x-amz-date')?.[1];
  const basicIso = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
  if (date === undefined || !basicIso.test(date)) throw ERRORS.SIGV4_DATE_MISSING();
  const host = Object.entries(request.headers).find(([name]) => name.toLowerCase() === 'host')?.[1] ?? '';
  const signer = new SignatureV4({
    credentials: { accessKeyId: key.accessKey, secretAccessKey: key.secretKey },
    region: key.region,
    service: key.service,
    sha256: Hash.bind(null, 'sha256'),
    // As this module promises: the path is signed as sent (already encoded) and only the caller's headers are signed.
    uriEscapePath: false,
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method: request.method.toUpperCase(),
      protocol: 'https:',
      hostname: host,
      path: request.path === '' ? '/' : request.path,
      query: queryOf(request.query ?? ''),
      headers: request.headers,
      body: request.body,
    },
    { signingDate: new Date(date.replace(basicIso, '$1-$2-$3T$4:$5:$6Z')) },
  );
  const authorization = signed.headers.authorization ?? '';
  return { authorization, signature: /Signature=([0-9a-f]{64})$/.exec(authorization)?.[1] ?? '' };
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
