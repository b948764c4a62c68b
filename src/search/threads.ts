import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * Starting a worker thread from a module of this project, compiled (`.js`) or run by tsx (`.ts`: tests, bench).
 */

/** The URL of the thread module `name` beside the module at `base` (its `import.meta.url`), in the same language. */
export function threadModule(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** Starts a thread running `script` (see threadModule) with `workerData`. */
export function startThread(script: URL, workerData: unknown): Worker {
  if (!script.pathname.endsWith('.ts')) return new Worker(script, { workerData });
  // Node 20 does not apply the loader tsx registers through execArgv to a worker's entry module, only to what that
  // module imports: the entry registers tsx and imports the TypeScript module.
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(script.href)}); });`, { eval: true, workerData });
}

/** The highest niceness: the lowest scheduling priority there is. */
const LOWEST_PRIORITY = 19;

/**
 * Lowers the scheduling priority of the calling thread by `increment` steps of niceness (Linux threads have one of
 * their own; higher is lower). Where threads have none (other systems), or the system refuses, the thread keeps its
 * priority: a slower run, not a failed one.
 */
export function lowerThreadPriority(increment: number): void {
  if (!(increment > 0)) return;
  try {
    // `/proc/thread-self` names the calling thread's task id, which setpriority(2) takes for that thread alone.
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(thread)) return;
    setPriority(thread, Math.min(LOWEST_PRIORITY, getPriority(thread) + Math.round(increment)));
  } catch {
    // No /proc, or no such right: the priority stays.
  }
}
