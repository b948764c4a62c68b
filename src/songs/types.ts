/** A song of the catalogue. `album` and `year` are optional in imported catalogues. */
export interface Song {
  id: number;
  name: string;
  artist: string;
  album: string | null;
  year: number | null;
}

/** The scrubbed best match a client gets: only the fields it shows. `price` is display text such as `$1.29`. */
export interface Match {
  title: string;
  artist: string;
  url: string;
  image: string | null;
  price: string | null;
}

/** The answer of `GET /api/song/<song_id>/affiliate/<provider>`. */
export interface AffiliateAnswer {
  song_id: number;
  provider: string;
  match: Match | null;
}

/** A lookup as the store keeps it: the provider's full answer, when it was fetched, and the match chosen from it. */
export interface SavedLookup {
  songId: number;
  provider: string;
  /** Milliseconds since the epoch. */
  fetchedAt: number;
  raw: unknown;
  match: Match | null;
}

/** Song affiliate providers. Amazon is usable only when its access key, secret key and partner tag are all set. */
export interface SongsConfig {
  itunesApiBase: string;
  amazon: AmazonConfig;
  providerTimeoutMs: number;
}

export interface AmazonConfig {
  credentials: { accessKey: string; secretKey: string; partnerTag: string } | undefined;
  /** The PA-API host, e.g. `webservices.amazon.co.uk`. */
  host: string;
  /** Where requests go: `https://<host>` unless AMAZON_PAAPI_BASE points elsewhere (a local stand-in). */
  baseUrl: string;
  region: string;
  marketplace: string;
}
