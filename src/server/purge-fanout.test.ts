import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { PurgeRelay, WorkerPurgeFanout, type FanoutMessage, type RelayWorker } from './purge-fanout.js';

/** Workers wired to a relay through in-process channels that deliver asynchronously, as IPC does. */
function wire(caches: Set<string>[], options: { timeoutMs?: number; silent?: number[] } = {}) {
  const workers: (RelayWorker & { connected: boolean })[] = [];
  const channels = caches.map(() => new EventEmitter());
  const relay = new PurgeRelay(() => workers.filter((worker) => worker.connected), { timeoutMs: options.timeoutMs ?? 500 });
  const fanouts = caches.map((cache, i) => {
    const channel = channels[i] as EventEmitter;
    const worker = {
      id: i + 1,
      connected: true,
      isConnected: () => worker.connected,
      send: (message: FanoutMessage) => setImmediate(() => channel.emit('message', message)),
    };
    workers.push(worker);
    return new WorkerPurgeFanout({
      channel: {
        on: (event, listener) => channel.on(event, listener),
        off: (event, listener) => channel.off(event, listener),
        send: (message) => {
          if (!options.silent?.includes(i + 1) || message.sitestack !== 'purge-local-done') setImmediate(() => relay.onMessage(worker, message));
        },
      },
      // A worker's cache holds names: a pathname or a surrogate key purges the entry of that name.
      purgeLocal: (request) => [...(request.pathnames ?? []), ...(request.keys ?? [])].filter((name) => cache.delete(name)),
      timeoutMs: 2_000,
    });
  });
  return { relay, fanouts, workers };
}

describe('purge fan-out', () => {
  it('purges every worker and answers the union of their keys, each once', async () => {
    const caches = [new Set(['/a', '/b']), new Set(['/a', '/c']), new Set(['/a'])];
    const { fanouts } = wire(caches);
    const result = await (fanouts[1] as WorkerPurgeFanout).purgeEverywhere({ pathnames: ['/a', '/b', '/c', '/z'] });
    assert.deepEqual([...result.purged].sort(), ['/a', '/b', '/c']);
    assert.equal(result.unanswered, 0);
    assert.deepEqual(caches.map((cache) => cache.size), [0, 0, 0]);
  });

  it('carries surrogate keys beside pathnames to every worker when a purge names both', async () => {
    const caches = [new Set(['/a', 'post:1']), new Set(['post:1', 'listing:home']), new Set(['/a'])];
    const { fanouts } = wire(caches);
    const result = await (fanouts[2] as WorkerPurgeFanout).purgeEverywhere({ pathnames: ['/a'], keys: ['post:1', 'listing:home'] });
    assert.deepEqual([...result.purged].sort(), ['/a', 'listing:home', 'post:1']);
    assert.deepEqual(caches.map((cache) => cache.size), [0, 0, 0]);
  });

  it('answers after the timeout with what it has when a worker does not confirm', async () => {
    const caches = [new Set(['/a']), new Set(['/a', '/b'])];
    const { fanouts } = wire(caches, { timeoutMs: 100, silent: [2] });
    const started = performance.now();
    const result = await (fanouts[0] as WorkerPurgeFanout).purgeEverywhere({ pathnames: ['/a', '/b'] });
    assert.ok(performance.now() - started >= 90);
    assert.deepEqual(result, { purged: ['/a'], unanswered: 1 });
  });

  it('stops waiting for a worker when it exits during the relay', async () => {
    const caches = [new Set(['/a']), new Set(['/a'])];
    const { fanouts, relay, workers } = wire(caches, { timeoutMs: 5_000, silent: [2] });
    const pending = (fanouts[0] as WorkerPurgeFanout).purgeEverywhere({ pathnames: ['/a'] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const dead = workers[1] as RelayWorker & { connected: boolean };
    dead.connected = false;
    relay.onExit(dead);
    assert.deepEqual(await pending, { purged: ['/a'], unanswered: 0 });
  });

  it('ignores messages that are not the fan-out\'s when they share the channel', async () => {
    const { relay, fanouts } = wire([new Set(['/a'])]);
    relay.onMessage({ id: 9, send: () => assert.fail('answered a foreign message'), isConnected: () => true }, { sitestack: 'other', id: 1 });
    relay.onMessage({ id: 9, send: () => assert.fail('answered a foreign message'), isConnected: () => true }, 'text');
    assert.deepEqual(await (fanouts[0] as WorkerPurgeFanout).purgeEverywhere({ pathnames: ['/a'] }), { purged: ['/a'], unanswered: 0 });
  });
});
