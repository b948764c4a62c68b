import { ERRORS } from '../../error-codes.js';
import { bestMatch, DEFAULT_MATCH_POLICY, type Candidate, type MatchPolicy } from '../match.js';
import { formatPrice } from '../price.js';
import type { Song } from '../types.js';
import { httpUrlOrNull, isRecord, requestJson, stringOrNull } from './http.js';
import { ProviderError, type ProviderAnswer, type SongProvider } from './provider.js';

export interface ItunesProviderOptions {
  /** Base URL of the iTunes Search API. @default 'https://itunes.apple.com' */
  baseUrl?: string;
  /** How many rows to ask for; the best match is chosen among them. @default 10 */
  limit?: number;
  /** Two-letter store country. @default 'US' */
  country?: string;
  /** Largest answer read, in bytes. @default 2097152 */
  maxAnswerBytes?: number;
  /** @default DEFAULT_MATCH_POLICY */
  matchPolicy?: MatchPolicy;
}

export const ITUNES_DEFAULTS: Required<ItunesProviderOptions> = {
  baseUrl: 'https://itunes.apple.com',
  limit: 10,
  country: 'US',
  maxAnswerBytes: 2 * 1024 * 1024,
  matchPolicy: DEFAULT_MATCH_POLICY,
};

/** The rows of an iTunes Search API answer that can be offered: songs with a title, an artist and a store link. */
export function itunesCandidates(body: unknown): Candidate[] {
  if (!isRecord(body) || !Array.isArray(body.results)) {
    throw new ProviderError(ERRORS.PROVIDER_GARBAGE('itunes', 'answer has no results array'));
  }
  const candidates: Candidate[] = [];
  for (const row of body.results) {
    if (!isRecord(row)) continue;
    const title = stringOrNull(row.trackName);
    const artist = stringOrNull(row.artistName);
    const url = httpUrlOrNull(row.trackViewUrl);
    if (title === null || artist === null || url === null) continue;
    candidates.push({ title, artist, url, image: httpUrlOrNull(row.artworkUrl100), price: formatPrice(row.trackPrice, row.currency) });
  }
  return candidates;
}

/** The iTunes Search API: `GET /search?term=…&media=music&entity=song`, no credentials. */
export function createItunesProvider(options: ItunesProviderOptions = {}): SongProvider {
  const settings = { ...ITUNES_DEFAULTS, ...options };
  return {
    name: 'itunes',
    async lookup(song: Song, { signal }): Promise<ProviderAnswer> {
      const query = new URLSearchParams({
        term: `${song.artist} ${song.name}`,
        media: 'music',
        entity: 'song',
        limit: String(settings.limit),
        country: settings.country,
      });
      const { status, body } = await requestJson(
        'itunes',
        `${settings.baseUrl.replace(/\/+$/, '')}/search?${query.toString()}`,
        { method: 'GET', headers: { accept: 'application/json' }, signal },
        settings.maxAnswerBytes,
      );
      if (status !== 200) {
        const message = isRecord(body) && typeof body.errorMessage === 'string' ? `: ${body.errorMessage.slice(0, 200)}` : '';
        throw new ProviderError(ERRORS.PROVIDER_FAILED.with({ details: { status } }, 'itunes', `answered ${status}${message}`));
      }
      return { raw: body, match: bestMatch(song, itunesCandidates(body), settings.matchPolicy) };
    },
  };
}
