import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A request trace: one key per request. */
export interface Trace {
  name: string;
  keys: Uint32Array;
  note: string;
}

/** The repository's root: this file runs from bench/eviction/ under tsx, from build/bench/bench/eviction/ compiled. */
const ROOT = new URL(import.meta.url.endsWith('.js') ? '../../../../' : '../../', import.meta.url);
/** cache2k's public traces (CC BY 4.0, headissue GmbH, Jens Wilke), with their licence: bench/traces/README.md. */
export const PUBLIC_TRACES_DIR = fileURLToPath(new URL('bench/traces/', ROOT));
export const PUBLIC_TRACES = ['web07', 'web12'] as const;

/** Keys of a trace file's bytes: big-endian unsigned 32-bit integers, one per request (cache2k's format). */
export function parseTrace(bytes: Uint8Array, source: string): Uint32Array {
  if (bytes.length === 0) throw new Error(`${source}: empty trace`);
  if (bytes.length % 4 !== 0) throw new Error(`${source}: ${bytes.length} bytes is not a whole number of 4-byte big-endian keys`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keys = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < keys.length; i++) keys[i] = view.getUint32(i * 4, false);
  return keys;
}

/** The bytes of a trace file, decompressed through the system's `xz` when the name ends in `.xz`. */
export function readTraceBytes(path: string, xzCommand = 'xz'): Uint8Array {
  if (!existsSync(path)) throw new Error(`trace ${path} not found`);
  if (!path.endsWith('.xz')) return readFileSync(path);
  const run = spawnSync(xzCommand, ['-dc', path], { maxBuffer: 1 << 30 });
  if (run.error !== undefined) {
    const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(missing ? `reading ${path} needs the \`${xzCommand}\` command (apt-get install xz-utils), which is not installed` : `${xzCommand} -dc ${path}: ${run.error.message}`);
  }
  if (run.status !== 0) throw new Error(`${xzCommand} -dc ${path} exited with ${run.status}: ${run.stderr.toString().trim()}`);
  return run.stdout;
}

export function readTrace(path: string, note: string, xzCommand?: string): Trace {
  return { name: basename(path).replace(/\.xz$/, '').replace(/\.trace$/, ''), keys: parseTrace(readTraceBytes(path, xzCommand), path), note };
}

/** The two public traces, then any listed in `BENCH_TRACES` (comma-separated paths, each raw or `.xz`). */
export function benchTraces(extra: string | undefined): Trace[] {
  const traces = PUBLIC_TRACES.map((name) => readTrace(join(PUBLIC_TRACES_DIR, `${name}.trace.xz`), "cache2k's public trace (CC BY 4.0, headissue GmbH, Jens Wilke)"));
  for (const path of (extra ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '')) {
    traces.push(readTrace(path, 'from BENCH_TRACES'));
  }
  return traces;
}
