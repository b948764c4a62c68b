import type { AffiliateAnswer, Match } from './types.js';

/** Keeps exactly the fields a client uses, whatever else a provider's match object carries. */
export function scrubMatch(match: Match | null): Match | null {
  if (match === null) return null;
  return { title: match.title, artist: match.artist, url: match.url, image: match.image, price: match.price };
}

export function affiliateAnswer(songId: number, provider: string, match: Match | null): AffiliateAnswer {
  return { song_id: songId, provider, match: scrubMatch(match) };
}
