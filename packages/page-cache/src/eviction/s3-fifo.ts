import { HeldNodes } from './held-nodes.js';
import type { EvictionBounds, EvictionPolicy, PolicyKey } from './policy.js';
import { PolicyNode, Queue, shareOf, type QueueLimits } from './queue.js';

/** Share of the bounds the small queue holds before it evicts: the paper's 10%. */
const SMALL_SHARE = 0.1;
/** Most hits a key's counter records: a key in the main queue survives at most this many passes without a hit. */
const MAX_FREQUENCY = 3;

/**
 * S3-FIFO (Yang et al., SOSP 2023): new keys enter a small FIFO queue; one hit there moves a key to the main FIFO
 * queue when it reaches the small queue's end, no hit evicts it and remembers its key in a ghost queue; a key found
 * in the ghost queue enters main directly. Main reinserts a key with hits (spending one) instead of evicting it. A
 * scan of one-off keys only ever churns the small queue.
 */
export class S3FifoPolicy<K extends PolicyKey> extends HeldNodes<K> implements EvictionPolicy<K> {
  readonly #small = new Queue<K>(0);
  readonly #main = new Queue<K>(1);
  /** Keys evicted from the small queue, oldest first (a Set iterates in insertion order). */
  readonly #ghost = new Set<K>();
  readonly #ghostCapacity: number;
  readonly #smallLimits: QueueLimits;

  constructor(bounds: EvictionBounds) {
    super();
    this.#smallLimits = shareOf(bounds, SMALL_SHARE);
    this.#ghostCapacity = Math.max(1, Math.ceil(bounds.maxEntries * (1 - SMALL_SHARE)));
  }

  get weight(): number {
    return this.#small.weight + this.#main.weight;
  }

  touch(key: K): boolean {
    const node = this.nodes.get(key);
    if (node === undefined) return false;
    if (node.marks < MAX_FREQUENCY) node.marks++;
    return true;
  }

  insert(key: K, weight: number): void {
    const held = this.nodes.get(key);
    if (held !== undefined) {
      this.#queueOf(held).reweigh(held, weight);
      this.touch(key);
      return;
    }
    const node = new PolicyNode(key, weight, 0);
    this.nodes.set(key, node);
    if (this.#ghost.delete(key)) this.#main.pushHead(node);
    else this.#small.pushHead(node);
  }

  delete(key: K): boolean {
    const node = this.nodes.get(key);
    if (node === undefined) return false;
    this.#queueOf(node).remove(node);
    this.nodes.delete(key);
    return true;
  }

  evict(): K | undefined {
    const fromSmall = this.#main.count === 0 || (this.#small.count > 0 && this.#smallAtShare());
    const victim = fromSmall ? (this.#evictSmall() ?? this.#evictMain()) : this.#evictMain();
    if (victim === undefined) return undefined;
    this.nodes.delete(victim.key);
    return victim.key;
  }

  #queueOf(node: PolicyNode<K>): Queue<K> {
    return node.queue === this.#small.id ? this.#small : this.#main;
  }

  #smallAtShare(): boolean {
    return this.#small.count >= this.#smallLimits.entries || this.#small.weight >= this.#smallLimits.weight;
  }

  /** Moves hit keys from the small queue's end to main until one without a hit is found and evicted. */
  #evictSmall(): PolicyNode<K> | undefined {
    for (let node = this.#small.tail; node !== undefined; node = this.#small.tail) {
      this.#small.remove(node);
      if (node.marks > 0) {
        node.marks = 0;
        this.#main.pushHead(node);
      } else {
        this.#remember(node.key);
        return node;
      }
    }
    return undefined;
  }

  /** Reinserts keys with hits left (spending one each) until one without is found and evicted. */
  #evictMain(): PolicyNode<K> | undefined {
    for (let node = this.#main.tail; node !== undefined; node = this.#main.tail) {
      this.#main.remove(node);
      if (node.marks === 0) return node;
      node.marks--;
      this.#main.pushHead(node);
    }
    return undefined;
  }

  #remember(key: K): void {
    this.#ghost.add(key);
    if (this.#ghost.size > this.#ghostCapacity) {
      const oldest = this.#ghost.values().next();
      if (oldest.done !== true) this.#ghost.delete(oldest.value);
    }
  }
}
