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

/** The codes of a provider's failure. */
export type ProviderFailure = 'PROVIDER_FAILED' | 'PROVIDER_GARBAGE' | 'PROVIDER_ANSWER_TOO_LARGE' | 'PROVIDER_TIMEOUT' | 'PROVIDER_CANCELLED';

/** A provider failed: it could not be reached, timed out, answered an error or something that is not its format. */
export class ProviderError extends AppError {
  constructor(provider: string, message: string, options: { code?: ProviderFailure; cause?: unknown; details?: unknown } = {}) {
    const failure = ERRORS[options.code ?? 'PROVIDER_FAILED'];
    super(failure.code, failure(provider, message).message, failure.status, options);
    this.name = 'ProviderError';
  }
}

/** The provider exists but this server has no credentials for it. */
export class ProviderUnavailableError extends AppError {
  constructor(provider: string, reason: string) {
    super(ERRORS.PROVIDER_UNAVAILABLE.code, ERRORS.PROVIDER_UNAVAILABLE(provider, reason).message, ERRORS.PROVIDER_UNAVAILABLE.status);
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
