/**
 * Purge fan-out between front worker processes (node:cluster) over their IPC channel. Each worker has its own page
 * cache, so a purge received by one worker must reach every worker: the receiving worker purges its own cache and asks
 * the primary to relay; the primary sends the purge (pathnames, surrogate keys) to every other live worker, gathers their `purged` answers
 * (or gives up on the silent ones after a timeout) and hands the union back.
 */
import type { Logger } from '../log.js';
import type { PurgeRequest } from '@sitestack/page-cache';

/** IPC messages of the fan-out; the `sitestack` tag lets other IPC traffic pass by. */
export type FanoutMessage =
  | { sitestack: 'purge-request'; id: number; request: PurgeRequest }
  | { sitestack: 'purge-local'; id: number; request: PurgeRequest }
  | { sitestack: 'purge-local-done'; id: number; purged: string[] }
  | { sitestack: 'purge-result'; id: number; purged: string[]; unanswered: number };

const KINDS = new Set(['purge-request', 'purge-local', 'purge-local-done', 'purge-result']);

export function isFanoutMessage(value: unknown): value is FanoutMessage {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  return typeof message['sitestack'] === 'string' && KINDS.has(message['sitestack']) && typeof message['id'] === 'number';
}

/** The part of a cluster worker the relay uses. */
export interface RelayWorker {
  readonly id: number;
  send(message: FanoutMessage): unknown;
  isConnected(): boolean;
}

/** Options of the primary's relay. */
export interface PurgeRelayOptions {
  /** How long the primary waits for the other workers' answers before answering with what it has. @default 2000 */
  timeoutMs?: number;
  logger?: Logger;
}

export const PURGE_RELAY_DEFAULTS = { timeoutMs: 2_000 } as const;

interface PendingRelay {
  from: RelayWorker;
  requestId: number;
  waitingFor: Set<number>;
  purged: Set<string>;
  timer: NodeJS.Timeout;
}

/** The primary's side: relays each worker's purge to the others and answers with the union of what they purged. */
export class PurgeRelay {
  readonly #workers: () => RelayWorker[];
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;
  readonly #pending = new Map<number, PendingRelay>();
  #nextId = 0;

  constructor(workers: () => RelayWorker[], options: PurgeRelayOptions = {}) {
    this.#workers = workers;
    this.#timeoutMs = options.timeoutMs ?? PURGE_RELAY_DEFAULTS.timeoutMs;
    this.#logger = options.logger;
  }

  /** Feed every message a worker sends; others than the fan-out's are ignored. */
  onMessage(from: RelayWorker, message: unknown): void {
    if (!isFanoutMessage(message)) return;
    if (message.sitestack === 'purge-request') this.#relay(from, message.id, message.request);
    else if (message.sitestack === 'purge-local-done') this.#answered(from.id, message.id, message.purged);
  }

  /** A worker that exited answers nothing more; its cache went with it. */
  onExit(worker: RelayWorker): void {
    for (const [id, pending] of this.#pending) {
      if (pending.waitingFor.delete(worker.id) && pending.waitingFor.size === 0) this.#finish(id);
    }
  }

  /** Answers every relay still waiting with what it has. */
  close(): void {
    for (const id of [...this.#pending.keys()]) this.#finish(id);
  }

  #relay(from: RelayWorker, requestId: number, request: PurgeRequest): void {
    const id = ++this.#nextId;
    const others = this.#workers().filter((worker) => worker.id !== from.id && worker.isConnected());
    const pending: PendingRelay = {
      from,
      requestId,
      waitingFor: new Set(others.map((worker) => worker.id)),
      purged: new Set(),
      timer: setTimeout(() => this.#finish(id), this.#timeoutMs),
    };
    pending.timer.unref();
    this.#pending.set(id, pending);
    for (const worker of others) {
      try {
        worker.send({ sitestack: 'purge-local', id, request });
      } catch (error) {
        this.#logger?.warn({ err: error, worker: worker.id }, 'could not relay a purge to a worker');
        pending.waitingFor.delete(worker.id);
      }
    }
    if (pending.waitingFor.size === 0) this.#finish(id);
  }

  #answered(workerId: number, id: number, purged: string[]): void {
    const pending = this.#pending.get(id);
    if (pending === undefined || !pending.waitingFor.delete(workerId)) return;
    for (const key of purged) pending.purged.add(key);
    if (pending.waitingFor.size === 0) this.#finish(id);
  }

  #finish(id: number): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (pending.waitingFor.size > 0) {
      this.#logger?.warn({ workers: [...pending.waitingFor] }, 'front workers did not confirm a purge in time');
    }
    if (!pending.from.isConnected()) return;
    pending.from.send({ sitestack: 'purge-result', id: pending.requestId, purged: [...pending.purged], unanswered: pending.waitingFor.size });
  }
}

/** The IPC channel of a worker process (`process` in a cluster worker). */
export interface IpcChannel {
  send?: (message: FanoutMessage) => unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Options of a worker's side of the fan-out. */
export interface WorkerPurgeFanoutOptions {
  /** Purges this worker's own cache; returns the keys it purged. */
  purgeLocal: (request: PurgeRequest) => string[];
  /** @default process */
  channel?: IpcChannel;
  /** How long to wait for the primary's answer; past it the worker answers with its own keys only. @default 3000 */
  timeoutMs?: number;
  logger?: Logger;
}

export interface FanoutPurgeResult {
  /** Keys removed in every worker that answered, each once. */
  purged: string[];
  /** Workers that did not confirm in time (0 when every worker did). */
  unanswered: number;
}

/** A worker's side: purges here and everywhere else, and purges here when the primary relays another's purge. */
export class WorkerPurgeFanout {
  readonly #purgeLocal: (request: PurgeRequest) => string[];
  readonly #channel: IpcChannel;
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;
  readonly #waiting = new Map<number, (result: FanoutPurgeResult) => void>();
  readonly #listener = (message: unknown) => this.#onMessage(message);
  #nextId = 0;

  constructor(options: WorkerPurgeFanoutOptions) {
    this.#purgeLocal = options.purgeLocal;
    this.#channel = options.channel ?? (process as unknown as IpcChannel);
    this.#timeoutMs = options.timeoutMs ?? 3_000;
    this.#logger = options.logger;
    this.#channel.on('message', this.#listener);
  }

  /** Purges in this worker and, through the primary, in every other worker; resolves with the union. */
  async purgeEverywhere(request: PurgeRequest): Promise<FanoutPurgeResult> {
    const local = this.#purgeLocal(request);
    if (this.#channel.send === undefined) return { purged: [...new Set(local)], unanswered: 0 };
    const id = ++this.#nextId;
    const others = await new Promise<FanoutPurgeResult | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        resolve(undefined);
      }, this.#timeoutMs);
      this.#waiting.set(id, (result) => {
        clearTimeout(timer);
        resolve(result);
      });
      this.#channel.send?.({ sitestack: 'purge-request', id, request: { pathnames: request.pathnames, keys: request.keys } });
    });
    if (others === undefined) {
      this.#logger?.warn({ pathnames: request.pathnames?.length ?? 0, keys: request.keys?.length ?? 0 }, 'the primary did not answer a purge relay in time; purged this worker only');
      return { purged: [...new Set(local)], unanswered: 1 };
    }
    return { purged: [...new Set([...local, ...others.purged])], unanswered: others.unanswered };
  }

  #onMessage(message: unknown): void {
    if (!isFanoutMessage(message)) return;
    if (message.sitestack === 'purge-local') {
      const purged = this.#purgeLocal(message.request);
      this.#channel.send?.({ sitestack: 'purge-local-done', id: message.id, purged });
    } else if (message.sitestack === 'purge-result') {
      const resolve = this.#waiting.get(message.id);
      this.#waiting.delete(message.id);
      resolve?.({ purged: message.purged, unanswered: message.unanswered });
    }
  }

  close(): void {
    this.#channel.off('message', this.#listener);
    for (const resolve of this.#waiting.values()) resolve({ purged: [], unanswered: 1 });
    this.#waiting.clear();
  }
}
