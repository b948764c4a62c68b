import type { errors } from '@elastic/elasticsearch';
import { ERRORS } from '../../../error-codes.js';
import type { AppError } from '../../../errors.js';
import type { AliasAction } from '../types.js';

/** How the Elasticsearch engine tells the cluster's failures apart: which to retry, which to answer as 503. */

/** The cluster's error type and reason, from a response body. */
export function responseCause(error: errors.ResponseError): { type: string; reason: string } {
  const body = error.body as { error?: { type?: string; reason?: string; root_cause?: { type?: string; reason?: string }[] } | string } | undefined;
  if (typeof body?.error === 'string') return { type: 'error', reason: body.error };
  return { type: body?.error?.type ?? `http_${error.statusCode ?? 0}`, reason: body?.error?.reason ?? error.message };
}

/** The index or alias a cluster's not-found refusal names (`resource.id`, or `index` for an index). */
export function missingResource(error: errors.ResponseError): string | undefined {
  const cause = (error.body as { error?: { 'resource.id'?: unknown; index?: unknown } } | undefined)?.error;
  const name = cause?.['resource.id'] ?? cause?.index;
  return typeof name === 'string' ? name : undefined;
}

/** The index of an alias update's first removal: the one a missing alias was to be removed from. */
export function removedFrom(actions: readonly AliasAction[]): string {
  const removal = actions.find((action) => 'remove' in action);
  return removal !== undefined && 'remove' in removal ? removal.remove.index : '';
}

// Errors are told apart by name: the client's CommonJS and ESM builds have distinct classes of the same names.
export function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

export function isResponseError(error: unknown): error is errors.ResponseError {
  return errorName(error) === 'ResponseError';
}

/** Whether another attempt may succeed: the cluster is unreachable, slow, overloaded or between masters. */
export function isTransient(error: unknown): boolean {
  const name = errorName(error);
  if (name === 'ConnectionError' || name === 'TimeoutError' || name === 'NoLivingConnectionsError') return true;
  return isResponseError(error) && [429, 502, 503, 504].includes(error.statusCode ?? 0);
}

/** Failures the API answers as 503: the cluster cannot serve now, or refuses the configured credentials. */
export function isUnavailable(error: unknown): boolean {
  return isTransient(error) || (isResponseError(error) && [401, 403].includes(error.statusCode ?? 0));
}

export function unavailable(error: unknown): AppError {
  const what =
    errorName(error) === 'TimeoutError'
      ? 'timed out'
      : isResponseError(error)
        ? `answered ${error.statusCode ?? '?'} ${responseCause(error).type}`
        : 'cannot be reached';
  return ERRORS.SEARCH_UNAVAILABLE.with({ cause: error }, what);
}

export function isStatus(error: unknown, status: number): error is errors.ResponseError {
  return isResponseError(error) && error.statusCode === status;
}
