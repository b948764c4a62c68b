import { FrequencySketch } from './frequency-sketch.js';
import { hashKey } from './key-hash.js';
import { HeldNodes } from './held-nodes.js';
import type { EvictionBounds, EvictionPolicy, PolicyKey } from './policy.js';
import { PolicyNode, Queue, shareOf, type QueueLimits } from './queue.js';

/** Share of the bounds the admission window (an LRU) holds: Caffeine's starting 1%. */
const WINDOW_SHARE = 0.01;
/** Share of the main space kept for keys hit again after admission (segmented LRU's protected part). */
const PROTECTED_SHARE = 0.8;
const WINDOW = 0;
const PROBATION = 1;
const PROTECTED = 2;

/**
 * W-TinyLFU (Einziger, Friedman and Manes, 2017; Caffeine's policy, with a fixed window): new keys enter a small LRU
 * window; a key leaving the window enters the main segmented LRU only if the frequency sketch says it was asked for
 * more often than the key main would evict for it. A scan's one-off keys are each asked for once, so they lose to any
 * popular key and pass through the window only.
 */
export class WTinyLfuPolicy<K extends PolicyKey> extends HeldNodes<K> implements EvictionPolicy<K> {
  readonly #window = new Queue<K>(WINDOW);
  readonly #probation = new Queue<K>(PROBATION);
  readonly #protected = new Queue<K>(PROTECTED);
  readonly #queues = [this.#window, this.#probation, this.#protected] as const;
  readonly #sketch: FrequencySketch;
  readonly #windowLimits: QueueLimits;
  /** The main space's bounds: what the window leaves. */
  readonly #main: QueueLimits;
  readonly #protectedLimits: QueueLimits;

  constructor(bounds: EvictionBounds) {
    super();
    // Whole entries, as Caffeine counts them: a cache of fewer than 100 entries has no window of its own, and a new key
    // then contests main's victim as soon as main is full.
    const windowEntries = Math.floor(bounds.maxEntries * WINDOW_SHARE);
    const windowWeight = bounds.maxWeight === undefined ? Infinity : bounds.maxWeight * WINDOW_SHARE;
    this.#windowLimits = { entries: windowEntries, weight: windowWeight };
    this.#main = { entries: bounds.maxEntries - windowEntries, weight: bounds.maxWeight === undefined ? Infinity : bounds.maxWeight - windowWeight };
    this.#protectedLimits = shareOf({ maxEntries: this.#main.entries, maxWeight: this.#main.weight }, PROTECTED_SHARE);
    this.#sketch = new FrequencySketch(Math.min(bounds.maxEntries, 1024));
  }

  get weight(): number {
    return this.#window.weight + this.#probation.weight + this.#protected.weight;
  }

  touch(key: K): boolean {
    const node = this.nodes.get(key);
    if (node === undefined) return false;
    this.#sketch.increment(node.hash);
    this.#hit(node);
    return true;
  }

  insert(key: K, weight: number): void {
    const held = this.nodes.get(key);
    if (held !== undefined) {
      this.#queues[held.queue]!.reweigh(held, weight);
      this.#sketch.increment(held.hash);
      this.#hit(held);
      return;
    }
    const node = new PolicyNode(key, weight, hashKey(key));
    this.nodes.set(key, node);
    this.#sketch.ensureCapacity(this.nodes.size);
    this.#sketch.increment(node.hash);
    this.#window.pushHead(node);
    // While the cache fills, keys leave the window for main without a contest: there is room for both.
    while (this.#windowOverShare() && !this.#mainFull()) this.#admit(this.#window.tail!);
  }

  delete(key: K): boolean {
    const node = this.nodes.get(key);
    if (node === undefined) return false;
    this.#queues[node.queue]!.remove(node);
    this.nodes.delete(key);
    return true;
  }

  evict(): K | undefined {
    const evicted = this.#victim();
    if (evicted === undefined) return undefined;
    this.#queues[evicted.queue]!.remove(evicted);
    this.nodes.delete(evicted.key);
    return evicted.key;
  }

  #hit(node: PolicyNode<K>): void {
    if (node.queue === PROBATION) {
      this.#probation.remove(node);
      this.#protected.pushHead(node);
      while (this.#protected.count > 1 && this.#protected.exceeds(this.#protectedLimits)) {
        this.#demoteTail(this.#protected.tail!);
      }
    } else this.#queues[node.queue]!.moveToHead(node);
  }

  /**
   * The key to evict: when the window is over its share, its oldest key contests main's next victim and the one asked
   * for less often goes (ties keep main's, as a one-off key must not displace it); otherwise main's victim, or the
   * window's oldest while main is empty.
   */
  #victim(): PolicyNode<K> | undefined {
    const candidate = this.#window.tail;
    const victim = this.#probation.tail ?? this.#protected.tail;
    if (victim === undefined) return candidate;
    if (candidate === undefined || !this.#windowOverShare()) return victim;
    if (this.#sketch.frequency(candidate.hash) <= this.#sketch.frequency(victim.hash)) return candidate;
    this.#admit(candidate);
    return victim;
  }

  /** Moves the protected queue's least recent key to probation's head. */
  #demoteTail(node: PolicyNode<K>): void {
    this.#protected.remove(node);
    this.#probation.pushHead(node);
  }

  #admit(node: PolicyNode<K>): void {
    this.#window.remove(node);
    this.#probation.pushHead(node);
  }

  #windowOverShare(): boolean {
    return this.#window.exceeds(this.#windowLimits);
  }

  #mainFull(): boolean {
    const count = this.#probation.count + this.#protected.count;
    const weight = this.#probation.weight + this.#protected.weight;
    return count + 1 > this.#main.entries || weight + this.#window.tail!.weight > this.#main.weight;
  }
}
