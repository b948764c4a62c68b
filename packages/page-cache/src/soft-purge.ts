/**
 * Soft purge's policy: how long a purged copy may still be answered, and one background render at a time per key to
 * replace it. Pure: the caller passes the time.
 */

/** Whether a copy soft-purged at `staleSince` may still be answered at `now`; past that it is dropped and rendered. */
export function staleServable(staleSince: number, now: number, staleMaxMs: number): boolean {
  return now - staleSince <= staleMaxMs;
}

/** The background renders of soft-purged entries under way, each under its key with when it started. */
export class Revalidations {
  readonly #started = new Map<string, number>();

  constructor(private readonly staleMaxMs: number) {}

  /**
   * Starts the revalidation of `key` at `now` and returns true, unless one is under way: one that has run for longer
   * than `staleMaxMs` is taken as lost, and replaced.
   */
  begin(key: string, now: number): boolean {
    const started = this.#started.get(key);
    if (started !== undefined && now - started <= this.staleMaxMs) return false;
    this.#started.set(key, now);
    return true;
  }

  /** Ends the revalidation of `key` begun at `startedAt`; one that replaced it as lost runs on. */
  end(key: string, startedAt: number): void {
    if (this.#started.get(key) === startedAt) this.#started.delete(key);
  }
}
