import { setTimeout as sleep } from 'node:timers/promises';
import { Client, errors, type estypes } from '@elastic/elasticsearch';
import { retryDelayMs } from '../../../backoff.js';
import { ERRORS } from '../../../error-codes.js';
import { isAppError, type AppError } from '../../../errors.js';
import type { Logger } from '../../../log.js';
import { ELASTICSEARCH_ENGINE_DEFAULTS, type ElasticsearchEngineOptions } from './options.js';
import { isResponseError, isStatus, isTransient, isUnavailable, responseCause, unavailable } from './errors.js';
import { indexNotFound, validIndexName } from '../validation.js';

/** Per-request options of every cluster call: the client's timeout, and a signal that ends the whole exchange. */
export type RequestBound = { requestTimeout: number; signal: AbortSignal };

type Operation = 'read' | 'write' | 'merge';

/**
 * The Elasticsearch engine's calls to its cluster: the client itself never retries (`maxRetries: 0`), so each call
 * runs here with its operation's timeout and the engine's own backoff, and the cluster's failures become the
 * project's errors.
 */
export class Cluster {
  readonly client: Client;
  readonly #logger: Logger | undefined;
  readonly #settings: Required<Omit<ElasticsearchEngineOptions, 'node' | 'auth' | 'index' | 'Connection' | 'logger' | 'stemLocales'>>;

  constructor(options: ElasticsearchEngineOptions) {
    this.#settings = {
      readTimeoutMs: options.readTimeoutMs ?? ELASTICSEARCH_ENGINE_DEFAULTS.readTimeoutMs,
      writeTimeoutMs: options.writeTimeoutMs ?? ELASTICSEARCH_ENGINE_DEFAULTS.writeTimeoutMs,
      mergeTimeoutMs: options.mergeTimeoutMs ?? ELASTICSEARCH_ENGINE_DEFAULTS.mergeTimeoutMs,
      readRetries: options.readRetries ?? ELASTICSEARCH_ENGINE_DEFAULTS.readRetries,
      writeRetries: options.writeRetries ?? ELASTICSEARCH_ENGINE_DEFAULTS.writeRetries,
      backoffMs: options.backoffMs ?? ELASTICSEARCH_ENGINE_DEFAULTS.backoffMs,
      maxBackoffMs: options.maxBackoffMs ?? ELASTICSEARCH_ENGINE_DEFAULTS.maxBackoffMs,
      maxResponseBytes: options.maxResponseBytes ?? ELASTICSEARCH_ENGINE_DEFAULTS.maxResponseBytes,
    };
    this.#logger = options.logger;
    this.client = new Client({
      node: options.node,
      ...(options.auth === undefined ? {} : { auth: options.auth }),
      ...(options.Connection === undefined ? {} : { Connection: options.Connection }),
      maxRetries: 0,
      requestTimeout: this.#settings.writeTimeoutMs,
      maxResponseSize: this.#settings.maxResponseBytes,
      maxCompressedResponseSize: this.#settings.maxResponseBytes,
    });
  }

  #backoff(attempt: number): number {
    return retryDelayMs(attempt, { baseMs: this.#settings.backoffMs, maxMs: this.#settings.maxBackoffMs }, Math.random());
  }

  /** Runs `request` with the operation's timeout, retrying transient failures; they end as SEARCH_UNAVAILABLE. */
  async call<T>(operation: Operation, name: string, request: (options: RequestBound) => Promise<T>): Promise<T> {
    const retries = operation === 'read' ? this.#settings.readRetries : this.#settings.writeRetries;
    const requestTimeout =
      operation === 'read' ? this.#settings.readTimeoutMs : operation === 'merge' ? this.#settings.mergeTimeoutMs : this.#settings.writeTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      // The client's own timeout ends when the headers arrive; this one also ends a body that trickles in.
      const signal = AbortSignal.timeout(requestTimeout);
      try {
        return await request({ requestTimeout, signal });
      } catch (thrown) {
        const error = signal.aborted ? new errors.TimeoutError('Request timed out while its answer was read') : thrown;
        if (!isTransient(error)) throw isUnavailable(error) ? unavailable(error) : error;
        if (attempt >= retries) throw unavailable(error);
        const delay = this.#backoff(attempt + 1);
        this.#logger?.warn({ request: name, attempt: attempt + 1, delayMs: Math.round(delay), err: unavailable(error).message }, 'search cluster request failed; retrying');
        await sleep(delay);
      }
    }
  }

  /**
   * Sends the actions of the items at `positions` in one `_bulk` request, then again those the cluster rejected with
   * 429, with backoff, up to writeRetries times; every other item's outcome goes to `settle`.
   */
  async sendBulk(
    index: string,
    positions: readonly number[],
    actionsOf: (position: number) => NonNullable<estypes.BulkRequest['operations']>,
    settle: (position: number, outcome: estypes.BulkResponseItem | undefined) => void,
  ): Promise<void> {
    let pending = positions;
    for (let attempt = 0; pending.length > 0; attempt++) {
      const operations = pending.flatMap(actionsOf);
      const response = await this.call('write', 'bulk', (options) => this.client.bulk({ operations }, options)).catch((error: unknown) => {
        throw isAppError(error) ? error : this.unexpected(error, 'bulk');
      });
      const rejected: number[] = [];
      response.items.forEach((item, i) => {
        const position = pending[i] as number;
        const outcome = Object.values(item)[0];
        if (outcome?.error !== undefined && outcome.error !== null && outcome.status === 429 && attempt < this.#settings.writeRetries) rejected.push(position);
        else settle(position, outcome);
      });
      pending = rejected;
      if (pending.length > 0) {
        const delay = this.#backoff(attempt + 1);
        this.#logger?.warn({ index, rejected: pending.length, attempt: attempt + 1, delayMs: Math.round(delay) }, 'bulk items rejected with 429; retrying them');
        await sleep(delay);
      }
    }
  }

  async indexCall(operation: Operation, label: string, index: string, request: (options: RequestBound) => Promise<unknown>): Promise<void> {
    if (!validIndexName(index)) throw indexNotFound(index);
    try {
      await this.call(operation, label, request);
    } catch (error) {
      if (isStatus(error, 404)) throw indexNotFound(index);
      throw this.unexpected(error, label);
    }
  }

  /** A read of an index or alias: a missing one is SEARCH_NOT_READY, like the embedded engine. */
  async read<T>(label: string, index: string, request: (options: RequestBound) => Promise<T>): Promise<T> {
    if (!validIndexName(index)) throw ERRORS.SEARCH_NOT_READY(index);
    try {
      return await this.call('read', label, request);
    } catch (error) {
      if (isStatus(error, 404)) throw ERRORS.SEARCH_NOT_READY(index);
      throw this.unexpected(error, label);
    }
  }

  /** Anything but a transient failure or a known 4xx is a bug of this engine or the cluster: a 502 naming the cause. */
  unexpected(error: unknown, label: string): AppError {
    if (isAppError(error)) return error;
    if (isResponseError(error)) {
      const { type, reason } = responseCause(error);
      this.#logger?.error({ request: label, status: error.statusCode, type, reason }, 'search cluster refused a request');
      return ERRORS.SEARCH_ENGINE_ERROR.with({ cause: error }, label, type);
    }
    this.#logger?.error({ request: label, err: error }, 'search cluster request failed');
    return ERRORS.SEARCH_ENGINE_ERROR.with({ cause: error }, label);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
