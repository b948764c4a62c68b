import type { Worker } from 'node:cluster';
import { ERRORS } from '../error-codes.js';
import { AggregatorRegistry, Gauge, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

/**
 * `/metrics` of `sitestack front --workers N`. The workers share one listening socket, so a scrape reaches any one of
 * them; that worker asks the primary, which collects every worker's metrics as JSON, sums them with prom-client's
 * AggregatorRegistry and hands the text back. Messages carry `sitestack: 'metrics-…'`, beside the purge relay's.
 */
type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

type MetricsMessage =
  | { sitestack: 'metrics-request'; id: number }
  | { sitestack: 'metrics-collect'; id: number }
  | { sitestack: 'metrics-part'; id: number; metrics: MetricsJson }
  | { sitestack: 'metrics-answer'; id: number; text?: string; error?: string };

function isMetricsMessage(message: unknown): message is MetricsMessage {
  const tag = (message as { sitestack?: unknown } | null)?.sitestack;
  return typeof tag === 'string' && tag.startsWith('metrics-');
}

export const METRICS_CLUSTER_DEFAULTS = {
  /** How long the primary waits for the workers' parts; a worker that has not answered by then is left out. */
  collectTimeoutMs: 1_000,
  /** How long a worker waits for the primary's answer. */
  answerTimeoutMs: 3_000,
} as const;

/** The channel a worker talks to the primary on (`process` in a cluster worker). */
export interface WorkerChannel {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
  send?(message: unknown): boolean;
}

/** The worker's side: answers the primary's collection with this worker's registry, and asks it for the whole fleet's text. */
export class WorkerMetrics {
  readonly #registry: Registry;
  readonly #channel: WorkerChannel;
  readonly #waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  readonly #listener = (message: unknown) => this.#onMessage(message);
  #nextId = 0;

  constructor(registry: Registry, channel: WorkerChannel = process as unknown as WorkerChannel) {
    this.#registry = registry;
    this.#channel = channel;
    channel.on('message', this.#listener);
  }

  /** Every worker's metrics, summed, in the Prometheus text format. */
  fleetText(): Promise<string> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(ERRORS.METRICS_NO_ANSWER(METRICS_CLUSTER_DEFAULTS.answerTimeoutMs));
      }, METRICS_CLUSTER_DEFAULTS.answerTimeoutMs);
      this.#waiting.set(id, { resolve, reject, timer });
      this.#channel.send?.({ sitestack: 'metrics-request', id } satisfies MetricsMessage);
    });
  }

  close(): void {
    this.#channel.off('message', this.#listener);
    for (const { reject, timer } of this.#waiting.values()) {
      clearTimeout(timer);
      reject(ERRORS.METRICS_WORKER_STOPPING());
    }
    this.#waiting.clear();
  }

  #onMessage(message: unknown): void {
    if (!isMetricsMessage(message)) return;
    if (message.sitestack === 'metrics-collect') {
      void this.#registry.getMetricsAsJSON().then((metrics) =>
        this.#channel.send?.({ sitestack: 'metrics-part', id: message.id, metrics: metrics as MetricsJson } satisfies MetricsMessage),
      );
    } else if (message.sitestack === 'metrics-answer') {
      const waiting = this.#waiting.get(message.id);
      if (waiting === undefined) return;
      this.#waiting.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.text !== undefined) waiting.resolve(message.text);
      else waiting.reject(ERRORS.METRICS_PRIMARY_FAILED(message.error));
    }
  }
}

interface Collection {
  parts: MetricsJson[];
  expected: number;
  answer: (text: string) => void;
  timer: NodeJS.Timeout;
}

/** The primary's side: on a worker's request, collects every live worker's metrics and answers with their sum. */
export class MetricsAggregator {
  readonly #workers: () => Worker[];
  readonly #collections = new Map<number, Collection>();
  #nextId = 0;

  constructor(workers: () => Worker[]) {
    this.#workers = workers;
  }

  /** Handles a cluster message from `worker`; other messages are ignored. */
  onMessage(worker: Worker, message: unknown): void {
    if (!isMetricsMessage(message)) return;
    if (message.sitestack === 'metrics-request') this.#collect(worker, message.id);
    else if (message.sitestack === 'metrics-part') {
      const collection = this.#collections.get(message.id);
      if (collection === undefined) return;
      collection.parts.push(message.metrics);
      if (collection.parts.length === collection.expected) this.#finish(message.id);
    }
  }

  close(): void {
    for (const id of [...this.#collections.keys()]) this.#finish(id);
  }

  #collect(from: Worker, requestId: number): void {
    const id = this.#nextId++;
    const workers = this.#workers().filter((worker) => worker.isConnected());
    const answer = (text: string) => {
      if (from.isConnected()) from.send({ sitestack: 'metrics-answer', id: requestId, text } satisfies MetricsMessage);
    };
    const timer = setTimeout(() => this.#finish(id), METRICS_CLUSTER_DEFAULTS.collectTimeoutMs);
    this.#collections.set(id, { parts: [], expected: workers.length, answer, timer });
    for (const worker of workers) worker.send({ sitestack: 'metrics-collect', id } satisfies MetricsMessage);
  }

  #finish(id: number): void {
    const collection = this.#collections.get(id);
    if (collection === undefined) return;
    this.#collections.delete(id);
    clearTimeout(collection.timer);
    const registry = AggregatorRegistry.aggregate(collection.parts);
    const reporting = new Gauge({
      name: 'sitestack_front_workers',
      help: 'Front workers asked for this scrape, and those whose metrics it includes',
      labelNames: ['state'],
      registers: [registry],
    });
    reporting.set({ state: 'asked' }, collection.expected);
    reporting.set({ state: 'reporting' }, collection.parts.length);
    void registry.metrics().then(collection.answer);
  }
}
