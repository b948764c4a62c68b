import { AppError } from '../../errors.js';
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

/** A provider failed: it could not be reached, timed out, answered an error or something that is not its format. */
export class ProviderError extends AppError {
  constructor(provider: string, message: string, options: { code?: string; cause?: unknown; details?: unknown } = {}) {
    super(options.code ?? 'PROVIDER_FAILED', `provider ${provider}: ${message}`, 502, options);
    this.name = 'ProviderError';
  }
}

/** The provider exists but this server has no credentials for it. */
export class ProviderUnavailableError extends AppError {
  constructor(provider: string, reason: string) {
    super('PROVIDER_UNAVAILABLE', `provider ${provider} is not configured: ${reason}`, 503);
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
