import { AppError } from '../../errors.js';
import { ERRORS } from '../../error-codes.js';
import type { Match, Song } from '../types.js';

/** What a provider found for a song: its full answer, kept as it came, and the best match chosen from it. */
export interface ProviderAnswer {
  raw: unknown;
  match: Match | null;
}

/** A product-details API that can be asked for a song. */
export interface SongProvider {
  readonly name: string;
  /** Asks the provider; rejects with a ProviderError when it fails, times out (via `signal`) or answers garbage. */
  lookup(song: Song, options: { signal: AbortSignal }): Promise<ProviderAnswer>;
}

/**
 * A provider failed: it could not be reached, timed out, answered an error or something that is not its format. It is
 * the catalogue's PROVIDER_* error it is made of, under a name of its own.
 */
export class ProviderError extends AppError {
  constructor(failure: AppError) {
    super(failure.code, failure.message, failure.status, failure);
    this.name = 'ProviderError';
  }
}

/** The provider exists but this server has no credentials for it. */
export class ProviderUnavailableError extends AppError {
  constructor(provider: string, reason: string) {
    const failure = ERRORS.PROVIDER_UNAVAILABLE(provider, reason);
    super(failure.code, failure.message, failure.status);
    this.name = 'ProviderUnavailableError';
  }
}

/** A provider that is known but cannot be asked, e.g. amazon without keys: every lookup fails with a 503. */
export function unavailableProvider(name: string, reason: string): SongProvider {
  return {
    name,
    lookup: () => Promise.reject(new ProviderUnavailableError(name, reason)),
  };
}
