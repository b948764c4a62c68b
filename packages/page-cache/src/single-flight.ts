/**
 * Concurrent misses of one key share one render: the first request leads a flight and renders, the others wait for
 * what it reports. Knows nothing of HTTP or of entries: a flight lands with whatever its leader reports.
 */
export class SingleFlight<Result extends unknown[]> {
  readonly #waiting = new Map<string, Array<(...result: Result) => void>>();

  /** Starts a flight of `key` and returns true, or returns false when one is under way (then {@link follow} it). */
  lead(key: string): boolean {
    if (this.#waiting.has(key)) return false;
    this.#waiting.set(key, []);
    return true;
  }

  /** Waits for the flight of `key` under way; returns false, keeping nothing, when there is none. */
  follow(key: string, waiter: (...result: Result) => void): boolean {
    const waiters = this.#waiting.get(key);
    if (waiters === undefined) return false;
    waiters.push(waiter);
    return true;
  }

  /** Ends the flight of `key`: each of its followers is told `result`, in the order they came, and the next miss leads. */
  land(key: string, ...result: Result): void {
    const waiters = this.#waiting.get(key) ?? [];
    this.#waiting.delete(key);
    for (const waiter of waiters) waiter(...result);
  }
}
