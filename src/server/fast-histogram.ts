import type { Registry } from 'prom-client';

/**
 * A Prometheus histogram whose `observe` does no more than find a bucket and add one, for the per-request
 * histograms of the hot path: prom-client's Histogram validates, copies and hashes its labels on every observation,
 * which a page cache hit (a few tens of µs) feels. Label values are bound once per series (`series(...)`); the
 * registry reads the counts through `get()`, in the shape prom-client's own histograms give, so the text format and
 * the cluster aggregation (AggregatorRegistry) treat it as one of theirs.
 */
export class FastHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly L[];
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor(options: { name: string; help: string; labelNames: readonly L[]; buckets: readonly number[]; registers: readonly Registry[] }) {
    this.name = options.name;
    this.help = options.help;
    this.#labelNames = options.labelNames;
    this.#bounds = [...options.buckets].sort((a, b) => a - b);
    // The registry's type wants prom-client's Metric class; it only ever calls get() and reads name, help and type.
    for (const registry of options.registers) registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  /** The series of these label values (in `labelNames` order), made on first use. */
  series(...values: string[]): { observe(value: number): void } {
    const key = values.join('\u0000');
    let found = this.#series.get(key);
    if (found === undefined) {
      const labels = Object.fromEntries(this.#labelNames.map((name, i) => [name, values[i] ?? '']));
      found = new Series(labels, this.#bounds);
      this.#series.set(key, found);
    }
    return found;
  }

  /** What prom-client's Histogram.get() gives: per series, cumulative buckets up to `+Inf`, then `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: { labels: Record<string, string | number>; value: number; metricName: string }[] } {
    const values = [];
    for (const series of this.#series.values()) {
      let cumulative = 0;
      for (let i = 0; i < this.#bounds.length; i++) {
        cumulative += series.counts[i] ?? 0;
        values.push({ labels: { ...series.labels, le: this.#bounds[i] ?? 0 }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}

class Series {
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  observe(value: number): void {
    this.sum += value;
    this.count++;
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= (bounds[i] as number)) {
        this.counts[i] = (this.counts[i] ?? 0) + 1;
        return;
      }
    }
  }
}
