import { ERRORS } from '../../error-codes.js';
import { isAppError } from '../../errors.js';
import { readBoundedText } from '../../http/index.js';
import { ProviderError } from './provider.js';

export interface JsonAnswer {
  status: number;
  body: unknown;
}

/**
 * Sends one request to a provider and reads its JSON answer, reading at most `maxBytes` of body. Network failures,
 * timeouts (the caller's `signal`), oversized, non-UTF-8 and non-JSON bodies become ProviderErrors; the status is
 * returned as is, for the provider to judge.
 */
export async function requestJson(provider: string, url: string, init: RequestInit & { signal: AbortSignal }, maxBytes: number): Promise<JsonAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error' });
  } catch (error) {
    throw failure(provider, init.signal, error, 'could not be reached');
  }
  let text: string;
  try {
    text = await readBoundedText(response, maxBytes, `answered ${response.status}`);
  } catch (error) {
    if (!isAppError(error)) throw failure(provider, init.signal, error, 'broke off its answer');
    const kind = error.code === ERRORS.UPSTREAM_ANSWER_TOO_LARGE.code ? ERRORS.PROVIDER_ANSWER_TOO_LARGE : ERRORS.PROVIDER_GARBAGE;
    throw new ProviderError(kind.with({ cause: error }, provider, error.message));
  }
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch (error) {
    const type = response.headers.get('content-type') ?? 'no content type';
    throw new ProviderError(ERRORS.PROVIDER_GARBAGE.with({ cause: error }, provider, `answered ${response.status} (${type}) with a body that is not JSON`));
  }
}

function failure(provider: string, signal: AbortSignal, error: unknown, what: string): ProviderError {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
    return new ProviderError((timedOut ? ERRORS.PROVIDER_TIMEOUT : ERRORS.PROVIDER_CANCELLED).with({ cause: error }, provider));
  }
  return new ProviderError(ERRORS.PROVIDER_FAILED.with({ cause: error }, provider, what));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** An http(s) URL as a string, or null: provider answers are not trusted to hold safe links. */
export function httpUrlOrNull(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}
