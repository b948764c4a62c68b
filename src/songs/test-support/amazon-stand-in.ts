import { timingSafeEqual } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { PAAPI_SERVICE, SEARCH_ITEMS_PATH, SEARCH_ITEMS_TARGET } from '../providers/amazon.js';
import { parseAuthorization, signatureV4 } from '../providers/sigv4.js';
import type { StandInTrack } from './catalogue.js';
import { trackMatches, misbehave, startStandIn, type StandIn } from './stand-in.js';

export interface AmazonStandInOptions {
  tracks: readonly StandInTrack[];
  /** The access keys the stand-in knows, with their secrets. */
  keys: Record<string, string>;
  partnerTag: string;
  region: string;
}

/** Headers PA-API requires to be signed. */
const REQUIRED_SIGNED = ['host', 'x-amz-date', 'x-amz-target', 'content-encoding'];

function paapiError(response: ServerResponse, status: number, exception: string, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ __type: `com.amazon.paapi5#${exception}`, Errors: [{ __type: 'com.amazon.paapi5#ErrorData', Code: code, Message: message }] }));
}

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export function amazonItem(track: StandInTrack, partnerTag: string): Record<string, unknown> {
  const asin = `B0${String(track.id).padStart(8, '0')}`;
  return {
    ASIN: asin,
    DetailPageURL: `https://www.amazon.com/dp/${asin}?tag=${encodeURIComponent(partnerTag)}&linkCode=ogi&th=1&psc=1`,
    Images: { Primary: { Medium: { Height: 160, URL: `https://m.media-amazon.com/images/I/${asin}._SL160_.jpg`, Width: 160 } } },
    ItemInfo: {
      ByLineInfo: { Contributors: [{ Locale: 'en_US', Name: track.artist, Role: 'Artist', RoleType: 'artist' }] },
      Title: { DisplayValue: track.title, Label: 'Title', Locale: 'en_US' },
    },
    Offers: {
      Listings: [
        {
          Id: `listing-${asin}`,
          Price: { Amount: track.price, Currency: track.currency, DisplayAmount: `$${track.price.toFixed(2)}` },
          ViolatesMAP: false,
        },
      ],
    },
  };
}

/**
 * A local Product Advertising API 5.0 host for `SearchItems`. It checks the request as the real one does — operation
 * header, `content-encoding: amz-1.0`, a SigV4 signature recomputed with the shared secret, partner tag — and answers
 * with the real error shapes: 400 IncompleteSignature, 401 UnrecognizedClient / InvalidSignature, 404 NoResults.
 */
export function startAmazonStandIn(options: AmazonStandInOptions): Promise<StandIn> {
  return startStandIn(async (request, body, response, search) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    if (request.method !== 'POST' || url.pathname !== SEARCH_ITEMS_PATH || request.headers['x-amz-target'] !== SEARCH_ITEMS_TARGET) {
      paapiError(response, 404, 'UnknownOperationException', 'UnknownOperation', 'The operation requested is invalid. Please verify that the operation name is typed correctly.');
      return;
    }
    if (request.headers['content-encoding'] !== 'amz-1.0') {
      paapiError(response, 400, 'InvalidParameterValueException', 'InvalidParameterValue', 'Content-Encoding header must be amz-1.0.');
      return;
    }
    const authorization = parseAuthorization(request.headers.authorization ?? '');
    const date = request.headers['x-amz-date'];
    if (authorization === undefined || typeof date !== 'string' || !REQUIRED_SIGNED.every((name) => authorization.signedHeaders.includes(name))) {
      paapiError(response, 400, 'IncompleteSignatureException', 'IncompleteSignature', 'The request signature did not include all of the required components.');
      return;
    }
    const secret = options.keys[authorization.accessKey];
    if (secret === undefined) {
      paapiError(response, 401, 'UnrecognizedClientException', 'UnrecognizedClient', 'The Access Key ID or security token included in the request is invalid.');
      return;
    }
    const signedHeaders: Record<string, string> = {};
    for (const name of authorization.signedHeaders) {
      const value = request.headers[name];
      signedHeaders[name] = Array.isArray(value) ? value.join(',') : (value ?? '');
    }
    const expected = await signatureV4(
      { method: request.method, path: url.pathname, query: url.search.slice(1), headers: signedHeaders, body },
      { accessKey: authorization.accessKey, secretKey: secret, region: options.region, service: PAAPI_SERVICE },
    );
    if (authorization.day !== date.slice(0, 8) || authorization.region !== options.region || authorization.service !== PAAPI_SERVICE || !sameHex(expected.signature, authorization.signature)) {
      paapiError(
        response,
        401,
        'InvalidSignatureException',
        'InvalidSignature',
        'The request has not been correctly signed. If you are using an AWS SDK, requests are signed for you automatically; otherwise, go to https://webservices.amazon.com/paapi5/documentation/sending-request.html#signing.',
      );
      return;
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body);
    } catch {
      paapiError(response, 400, 'ValidationException', 'InvalidInput', 'The request body is not valid JSON.');
      return;
    }
    const request5 = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
    if (request5.PartnerTag !== options.partnerTag || request5.PartnerType !== 'Associates') {
      paapiError(response, 400, 'InvalidPartnerTagException', 'InvalidPartnerTag', 'The partner tag is invalid or not present.');
      return;
    }
    const keywords = typeof request5.Keywords === 'string' ? request5.Keywords : '';
    const count = typeof request5.ItemCount === 'number' ? request5.ItemCount : 10;
    if (keywords.trim() === '' || !Number.isInteger(count) || count < 1 || count > 10) {
      paapiError(response, 400, 'InvalidParameterValueException', 'InvalidParameterValue', 'Keywords must be given and ItemCount must be between 1 and 10.');
      return;
    }
    if (misbehave(search(), response)) return;
    const found = options.tracks.filter((track) => trackMatches(keywords, track));
    if (found.length === 0) {
      paapiError(response, 404, 'ResourceNotFoundException', 'NoResults', 'No results found for your request.');
      return;
    }
    const items = found.slice(0, count).map((track) => amazonItem(track, options.partnerTag));
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        SearchResult: { Items: items, SearchURL: `https://www.amazon.com/s?k=${encodeURIComponent(keywords)}&tag=${options.partnerTag}`, TotalResultCount: found.length },
      }),
    );
  });
}
