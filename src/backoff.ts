export interface BackoffPolicy {
  /** The first delay; it doubles per attempt. */
  baseMs: number;
  /** The longest delay. */
  maxMs: number;
}

/**
 * Delay before retry number `attempts` (1 = first retry): exponential, capped, with "equal jitter" so retries of many
 * jobs spread out yet never fire immediately. `random` is in [0, 1).
 */
export function retryDelayMs(attempts: number, policy: BackoffPolicy, random: number): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.round(exponential / 2 + (exponential / 2) * random);
}
