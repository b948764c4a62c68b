import { ERRORS } from '../../error-codes.js';
import { bestMatch, DEFAULT_MATCH_POLICY, type Candidate, type MatchPolicy } from '../match.js';
import type { Song } from '../types.js';
import { httpUrlOrNull, isRecord, requestJson, stringOrNull } from './http.js';
import { ProviderError, type ProviderAnswer, type SongProvider } from './provider.js';
import { amzDate, signatureV4 } from './sigv4.js';

export interface AmazonProviderOptions {
  accessKey: string;
  secretKey: string;
  /** The Associates store or tracking id, e.g. `mysite-20`. */
  partnerTag: string;
  /** Base URL of the PA-API host; a local stand-in may be `http://127.0.0.1:<port>`. @default 'https://webservices.amazon.com' */
  baseUrl?: string;
  /** Signing region of the host. @default 'us-east-1' */
  region?: string;
  /** @default 'www.amazon.com' */
  marketplace?: string;
  /** @default 'DigitalMusic' */
  searchIndex?: string;
  /** How many items to ask for (PA-API allows 1–10). @default 10 */
  itemCount?: number;
  /** Largest answer read, in bytes. @default 2097152 */
  maxAnswerBytes?: number;
  /** @default DEFAULT_MATCH_POLICY */
  matchPolicy?: MatchPolicy;
  /** The signing clock. @default () => new Date() */
  now?: () => Date;
}

export const AMAZON_DEFAULTS = {
  baseUrl: 'https://webservices.amazon.com',
  region: 'us-east-1',
  marketplace: 'www.amazon.com',
  searchIndex: 'DigitalMusic',
  itemCount: 10,
  maxAnswerBytes: 2 * 1024 * 1024,
  matchPolicy: DEFAULT_MATCH_POLICY,
  now: () => new Date(),
} satisfies Partial<AmazonProviderOptions>;

export const SEARCH_ITEMS_PATH = '/paapi5/searchitems';
export const SEARCH_ITEMS_TARGET = 'com.amazon.paapi5.v1.ProductAdvertisingAPIv1.SearchItems';
export const PAAPI_SERVICE = 'ProductAdvertisingAPI';
export const SEARCH_RESOURCES = ['ItemInfo.Title', 'ItemInfo.ByLineInfo', 'Images.Primary.Medium', 'Offers.Listings.Price'] as const;

function errorCodes(body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.Errors)) return [];
  return body.Errors.flatMap((error) => (isRecord(error) && typeof error.Code === 'string' ? [error.Code] : []));
}

function artistOf(item: Record<string, unknown>): string | null {
  const byLine = isRecord(item.ItemInfo) && isRecord(item.ItemInfo.ByLineInfo) ? item.ItemInfo.ByLineInfo : undefined;
  if (byLine === undefined) return null;
  const contributors = Array.isArray(byLine.Contributors) ? byLine.Contributors.filter(isRecord) : [];
  const artist = contributors.find((c) => c.Role === 'Artist' || c.RoleType === 'artist') ?? contributors[0];
  const name = stringOrNull(artist?.Name);
  if (name !== null) return name;
  return isRecord(byLine.Brand) ? stringOrNull(byLine.Brand.DisplayValue) : null;
}

/** The items of a SearchItems answer that can be offered: a title, an artist and a detail page. */
export function amazonCandidates(body: unknown): Candidate[] {
  if (!isRecord(body) || !isRecord(body.SearchResult) || !Array.isArray(body.SearchResult.Items)) {
    throw new ProviderError(ERRORS.PROVIDER_GARBAGE('amazon', 'answer has no SearchResult.Items'));
  }
  const candidates: Candidate[] = [];
  for (const item of body.SearchResult.Items) {
    if (!isRecord(item)) continue;
    const title = isRecord(item.ItemInfo) && isRecord(item.ItemInfo.Title) ? stringOrNull(item.ItemInfo.Title.DisplayValue) : null;
    const artist = artistOf(item);
    const url = httpUrlOrNull(item.DetailPageURL);
    if (title === null || artist === null || url === null) continue;
    const medium = isRecord(item.Images) && isRecord(item.Images.Primary) && isRecord(item.Images.Primary.Medium) ? item.Images.Primary.Medium : {};
    const listing = isRecord(item.Offers) && Array.isArray(item.Offers.Listings) ? item.Offers.Listings.find(isRecord) : undefined;
    const price = listing !== undefined && isRecord(listing.Price) ? stringOrNull(listing.Price.DisplayAmount) : null;
    candidates.push({ title, artist, url, image: httpUrlOrNull(medium.URL), price });
  }
  return candidates;
}

/** Product Advertising API 5.0 `SearchItems`, signed with AWS Signature Version 4. */
export function createAmazonProvider(options: AmazonProviderOptions): SongProvider {
  const settings = { ...AMAZON_DEFAULTS, ...options };
  const base = new URL(settings.baseUrl);
  const url = `${base.origin}${SEARCH_ITEMS_PATH}`;
  const key = { accessKey: settings.accessKey, secretKey: settings.secretKey, region: settings.region, service: PAAPI_SERVICE };
  return {
    name: 'amazon',
    async lookup(song: Song, { signal }): Promise<ProviderAnswer> {
      const body = JSON.stringify({
        Keywords: `${song.artist} ${song.name}`,
        SearchIndex: settings.searchIndex,
        ItemCount: settings.itemCount,
        PartnerTag: settings.partnerTag,
        PartnerType: 'Associates',
        Marketplace: settings.marketplace,
        Resources: SEARCH_RESOURCES,
      });
      const headers: Record<string, string> = {
        'content-encoding': 'amz-1.0',
        'content-type': 'application/json; charset=utf-8',
        host: base.host,
        'x-amz-date': amzDate(settings.now()),
        'x-amz-target': SEARCH_ITEMS_TARGET,
      };
      const { authorization } = await signatureV4({ method: 'POST', path: SEARCH_ITEMS_PATH, headers, body }, key);
      // fetch writes the Host header itself, from the same URL the signature covers.
      delete headers.host;
      const { status, body: answer } = await requestJson(
        'amazon',
        url,
        { method: 'POST', headers: { ...headers, authorization, accept: 'application/json' }, body, signal },
        settings.maxAnswerBytes,
      );
      const codes = errorCodes(answer);
      if (codes.includes('NoResults')) return { raw: answer, match: null };
      if (status !== 200) {
        throw new ProviderError(ERRORS.PROVIDER_FAILED.with({ details: { status, codes } }, 'amazon', `answered ${status}${codes.length > 0 ? ` (${codes.join(', ')})` : ''}`));
      }
      return { raw: answer, match: bestMatch(song, amazonCandidates(answer), settings.matchPolicy) };
    },
  };
}
