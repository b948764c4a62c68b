import type { EvictionBounds, PolicyKey } from './policy.js';

/** A held key and what its policy records of it; it sits in one {@link Queue} at a time. */
export class PolicyNode<K extends PolicyKey> {
  newer: PolicyNode<K> | undefined = undefined;
  older: PolicyNode<K> | undefined = undefined;
  /** Which queue of its policy holds it (the policy's own numbering). */
  queue = 0;
  /** The policy's per-key counter: SIEVE's visited bit, S3-FIFO's frequency. */
  marks = 0;

  constructor(
    readonly key: K,
    public weight: number,
    /** The key's hash, computed once at insert so that hits do not hash again. */
    readonly hash: number,
  ) {}
}

/** How much a queue may hold; `Infinity` weight when the cache bounds no weight. */
export interface QueueLimits {
  entries: number;
  weight: number;
}

/** `share` of the cache's bounds, as a queue's limits. */
export function shareOf(bounds: EvictionBounds, share: number): QueueLimits {
  return { entries: bounds.maxEntries * share, weight: bounds.maxWeight === undefined ? Infinity : bounds.maxWeight * share };
}

/** An intrusive doubly linked list of nodes, newest at the head, with its count and total weight. */
export class Queue<K extends PolicyKey> {
  head: PolicyNode<K> | undefined = undefined;
  tail: PolicyNode<K> | undefined = undefined;
  count = 0;
  weight = 0;

  constructor(readonly id: number) {}

  /** Whether it holds more than `limits` in entries or in weight. */
  exceeds(limits: QueueLimits): boolean {
    return this.count > limits.entries || this.weight > limits.weight;
  }

  pushHead(node: PolicyNode<K>): void {
    node.queue = this.id;
    node.older = this.head;
    node.newer = undefined;
    if (this.head === undefined) this.tail = node;
    else this.head.newer = node;
    this.head = node;
    this.count++;
    this.weight += node.weight;
  }

  remove(node: PolicyNode<K>): void {
    if (node.newer === undefined) this.head = node.older;
    else node.newer.older = node.older;
    if (node.older === undefined) this.tail = node.newer;
    else node.older.newer = node.newer;
    node.newer = undefined;
    node.older = undefined;
    this.count--;
    this.weight -= node.weight;
  }

  moveToHead(node: PolicyNode<K>): void {
    if (this.head === node) return;
    this.remove(node);
    this.pushHead(node);
  }

  /** Changes a held node's weight, keeping the queue's total right. */
  reweigh(node: PolicyNode<K>, weight: number): void {
    this.weight += weight - node.weight;
    node.weight = weight;
  }
}
