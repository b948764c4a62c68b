import { HeldNodes } from './held-nodes.js';
import type { EvictionPolicy, PolicyKey } from './policy.js';
import { PolicyNode, Queue } from './queue.js';

/**
 * SIEVE (Zhang et al., NSDI 2024): one FIFO queue, a visited bit per key set by hits, and a hand that walks from the
 * oldest key towards the newest, clearing visited bits and evicting the first key without one. A hit only sets a bit,
 * so it never reorders anything; one-off keys are evicted near where they entered.
 */
export class SievePolicy<K extends PolicyKey> extends HeldNodes<K> implements EvictionPolicy<K> {
  readonly #queue = new Queue<K>(0);
  /** The next key the hand looks at; `undefined` starts again from the oldest. */
  #hand: PolicyNode<K> | undefined = undefined;

  get weight(): number {
    return this.#queue.weight;
  }

  touch(key: K): boolean {
    const node = this.nodes.get(key);
    if (node === undefined) return false;
    node.marks = 1;
    return true;
  }

  insert(key: K, weight: number): void {
    const held = this.nodes.get(key);
    if (held !== undefined) {
      this.#queue.reweigh(held, weight);
      held.marks = 1;
      return;
    }
    const node = new PolicyNode(key, weight, 0);
    this.nodes.set(key, node);
    this.#queue.pushHead(node);
  }

  delete(key: K): boolean {
    const node = this.nodes.get(key);
    if (node === undefined) return false;
    this.#unlink(node);
    return true;
  }

  evict(): K | undefined {
    let node = this.#hand ?? this.#queue.tail;
    while (node !== undefined && node.marks !== 0) {
      node.marks = 0;
      node = node.newer ?? this.#queue.tail;
    }
    if (node === undefined) return undefined;
    this.#hand = node;
    this.#unlink(node);
    return node.key;
  }

  #unlink(node: PolicyNode<K>): void {
    if (this.#hand === node) this.#hand = node.newer;
    this.#queue.remove(node);
    this.nodes.delete(node.key);
  }
}
