import type { PolicyKey } from './policy.js';
import type { PolicyNode } from './queue.js';

/** The nodes of the keys a policy holds, by key: what every policy answers `size`, `has` and `keys` from. */
export abstract class HeldNodes<K extends PolicyKey> {
  protected readonly nodes = new Map<K, PolicyNode<K>>();

  get size(): number {
    return this.nodes.size;
  }

  has(key: K): boolean {
    return this.nodes.has(key);
  }

  keys(): IterableIterator<K> {
    return this.nodes.keys();
  }
}
