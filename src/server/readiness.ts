import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS } from '../error-codes.js';
import { readinessAnswer, type CheckResult, type Lifecycle, type ReadinessAnswer } from './operations-policy.js';

/** One check `/readyz` runs: resolves with a detail when it passes, rejects (or resolves `false`) when it fails. */
export interface ReadinessCheck {
  name: string;
  /** Whether its failure makes the process unready (a load balancer stops sending it requests) or only reports. */
  critical: boolean;
  run(signal: AbortSignal): Promise<string | boolean | undefined> | string | boolean | undefined;
}

/** Options of {@link Readiness}. */
export interface ReadinessOptions {
  checks?: readonly ReadinessCheck[];
  /** How long one check may take before it counts as failed. @default 1000 */
  checkTimeoutMs?: number;
  /**
   * How long a run of the checks is reused: probes from every load balancer and orchestrator share one run, so
   * `/readyz`, which anyone may call, cannot be turned into a flood of searches and origin requests. @default 1000
   */
  reuseMs?: number;
}

export const READINESS_DEFAULTS = { checkTimeoutMs: 1_000, reuseMs: 1_000 } as const;

/**
 * The lifecycle of one server process (starting → ready → draining) and its readiness checks. `draining()` is called
 * at the first stop request; `drainDelay` then keeps the server answering, unready, for as long as load balancers need
 * to notice (`DRAIN_DELAY_MS`).
 */
export class Readiness {
  #lifecycle: Lifecycle = 'starting';
  #drainingSince: number | undefined;
  readonly #checks: ReadinessCheck[];
  readonly #checkTimeoutMs: number;
  readonly #reuseMs: number;
  #last: { at: number; results: Promise<CheckResult[]> } | undefined;

  constructor(options: ReadinessOptions = {}) {
    this.#checks = [...(options.checks ?? [])];
    this.#checkTimeoutMs = options.checkTimeoutMs ?? READINESS_DEFAULTS.checkTimeoutMs;
    this.#reuseMs = options.reuseMs ?? READINESS_DEFAULTS.reuseMs;
  }

  /** One more check, for a part wired in after the server was built (the fleet's Redis). */
  add(check: ReadinessCheck): void {
    this.#checks.push(check);
  }

    get lifecycle(): Lifecycle {
    return this.#lifecycle;
  }

  /** Startup is over; a process already draining stays so. */
  ready(): void {
    if (this.#lifecycle === 'starting') this.#lifecycle = 'ready';
  }

  /** The first stop request: `/readyz` answers 503 from now on. */
  draining(): void {
    if (this.#lifecycle === 'draining') return;
    this.#lifecycle = 'draining';
    this.#drainingSince = performance.now();
  }

  /**
   * Marks the process draining and waits until `delayMs` has passed since it first was (a second server of the same
   * process stopping after the first waits only for what is left), or until `force` aborts.
   */
  async drainDelay(delayMs: number, force?: AbortSignal): Promise<void> {
    this.draining();
    const left = (this.#drainingSince ?? 0) + delayMs - performance.now();
    if (left <= 0 || force?.aborted === true) return;
    await sleep(left, undefined, { signal: force, ref: true }).catch(() => undefined);
  }

  /** The answer of `/readyz`: the lifecycle and every check, run at most once per `reuseMs`. */
  async answer(): Promise<ReadinessAnswer> {
    const now = performance.now();
    if (this.#last === undefined || now - this.#last.at >= this.#reuseMs) this.#last = { at: now, results: this.#runChecks() };
    return readinessAnswer(this.#lifecycle, await this.#last.results);
  }

  #runChecks(): Promise<CheckResult[]> {
    return Promise.all(this.#checks.map((check) => this.#runOne(check)));
  }

  async #runOne(check: ReadinessCheck): Promise<CheckResult> {
    const started = performance.now();
    const signal = AbortSignal.timeout(this.#checkTimeoutMs);
    const result = (ok: boolean, detail: string | undefined): CheckResult => ({
      name: check.name,
      ok,
      critical: check.critical,
      ...(detail === undefined ? {} : { detail }),
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
    try {
      const timedOut = new Promise<never>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(ERRORS.CHECK_TIMED_OUT(this.#checkTimeoutMs)), { once: true }),
      );
      const outcome = await Promise.race([Promise.resolve().then(() => check.run(signal)), timedOut]);
      return outcome === false ? result(false, undefined) : result(true, typeof outcome === 'string' ? outcome : undefined);
    } catch (error) {
      return result(false, error instanceof Error ? error.message : String(error));
    }
  }
}
