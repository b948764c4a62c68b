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
