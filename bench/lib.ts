import { fileURLToPath } from 'node:url';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/** One measured figure. `baseline` names another result of the same suite to compute a ratio against. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** Name of the result in the same suite this one is compared with. */
  baseline?: string;
  /** The figure to reach: a minimum ratio to the baseline, or an absolute bound on the value. */
  target?: { minRatio?: number; min?: number; max?: number };
  note?: string;
}

export interface BenchSuite {
  name: string;
  description: string;
  run(): Promise<BenchResult[]>;
}

export interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  warmupSeconds?: number;
  pipelining?: number;
  headers?: Record<string, string>;
  /** Request paths to cycle through; defaults to the URL's own path. */
  paths?: string[];
  /**
   * Paths of the warm-up run instead of `paths`, so that a measured run over distinct requests (each path once) does
   * not repeat what the warm-up already asked.
   */
  warmupPaths?: string[];
  /**
   * Appends `?<name>=<n>` (or `&<name>=<n>`) with a counter shared by all connections, so that every request is
   * distinct — a `paths` list cannot do that, because each connection cycles through it on its own.
   */
  uniqueQuery?: string;
  /** A process (the server under test) whose CPU time per request to report, read from /proc on Linux. */
  cpuOfPid?: number;
  /** Further processes whose CPU time per request to report together, as `otherCpuMicrosPerRequest`. */
  alsoCpuOfPids?: readonly number[];
  /** Runs wrk on the load generator's CPUs of {@link cpuSplit} (servers started with `pinned` get the other one). */
  pinned?: boolean;
  /**
   * With autocannon, p50 and p99 from every response's own time rather than autocannon's histogram, which counts
   * whole milliseconds: what a comparison of sub-millisecond tails needs (wrk reports microseconds anyway).
   */
  exactLatency?: boolean;
}

/** Which CPUs the system under test and the load generator each get when a suite pins them apart. */
export interface CpuSplit {
  /** taskset CPU list of the servers under test. */
  server: string;
  /** taskset CPU list of the load generator. */
  load: string;
}

/**
 * CPU 0 for the system under test and the remaining CPUs for the load generator, so that neither takes CPU time from
 * the other: on a small machine a fast server otherwise measures how much CPU the generator leaves it, not what it can
 * serve. Undefined (nothing pinned) on one CPU, without `taskset`, or with `BENCH_PIN=0`.
 */
export function cpuSplit(cpus: number, tasksetAvailable: boolean, setting: string | undefined): CpuSplit | undefined {
  if (cpus < 2 || !tasksetAvailable || setting === '0') return undefined;
  return { server: '0', load: cpus === 2 ? '1' : `1-${cpus - 1}` };
}

let machineSplit: CpuSplit | undefined | null = null;

/** {@link cpuSplit} of this machine. */
export function machineCpuSplit(): CpuSplit | undefined {
  if (machineSplit === null) {
    machineSplit = cpuSplit(availableParallelism(), spawnSync('taskset', ['-V']).error === undefined, process.env.BENCH_PIN);
  }
  return machineSplit;
}

/** Where pinned servers and the load generator run, for the notes of a results table. */
export function placement(): string {
  const split = machineCpuSplit();
  return split === undefined ? 'servers and load generator share the CPUs (not pinned)' : `servers on CPU ${split.server}, wrk on CPU ${split.load} (taskset)`;
}

/** `command args` as run on the CPUs `cpus` (through taskset, which execs the command: the pid stays the command's). */
export function onCpus(cpus: string | undefined, command: string, args: readonly string[]): [string, string[]] {
  return cpus === undefined ? [command, [...args]] : ['taskset', ['-c', cpus, command, ...args]];
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** CPU time the `cpuOfPid` process spent per request during the measured run, in µs (NaN when unavailable). */
  cpuMicrosPerRequest?: number;
  /** CPU time the `alsoCpuOfPids` processes spent per request together, in µs. */
  otherCpuMicrosPerRequest?: number;
}

/** User plus system CPU seconds a process has used so far, from /proc; NaN where /proc is not available. */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces): utime and stime are fields 14 and 15 of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

/**
 * Writes what earlier steps of a suite left in the kernel's page cache to disk (`sync`), so that the step measured
 * next does not share its cores and disk with the writeback of files it never wrote. Does nothing where `sync` is
 * missing.
 */
export function settleDisk(): void {
  spawnSync('sync', { stdio: 'ignore' });
}

/** The processes `pid` started that still run (a cluster primary's workers), from /proc; empty where it is not available. */
export function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter((child) => child !== '').map(Number),
    );
  } catch {
    return [];
  }
}

/** USER_HZ, 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

function withUniqueQuery(path: string, name: string, value: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${name}=${value}`;
}

/** A prefix for unique query values that differs between runs, so a measured run never repeats its warm-up's URLs. */
function runToken(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

async function autocannonRun(url: string, options: LoadOptions, durationSeconds: number): Promise<RunResult> {
  const base = new URL(url);
  const basePath = `${base.pathname}${base.search}`;
  const uniqueQuery = options.uniqueQuery;
  const token = runToken();
  let counter = 0;
  const requests =
    uniqueQuery === undefined
      ? options.paths?.map((path) => ({ method: 'GET' as const, path }))
      : [{ method: 'GET' as const, setupRequest: (request: autocannon.Request) => ({ ...request, path: withUniqueQuery(basePath, uniqueQuery, `${token}-${counter++}`) }) }];
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base.toString(),
        connections: options.connections ?? 32,
        duration: durationSeconds,
        pipelining: options.pipelining ?? 1,
        headers: options.headers ?? {},
        ...(requests === undefined ? {} : { requests }),
      },
      (error: unknown, finished: autocannon.Result) => (error === null || error === undefined ? resolve(finished) : reject(error)),
    );
    if (options.exactLatency === true) instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  const exact = times.length === 0 ? undefined : times.sort((a, b) => a - b);
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    requestsPerSecond: result.requests.total / durationSeconds,
    total: result.requests.total,
    p50Ms: exact === undefined ? result.latency.p50 : at(exact, 0.5),
    p99Ms: exact === undefined ? result.latency.p99 : at(exact, 0.99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

interface RunResult extends Omit<LoadResult, 'cpuMicrosPerRequest'> {
  total: number;
}

/** The Lua script that makes wrk cycle through `paths` or append a unique query parameter to every request. */
function wrkScript(url: URL, options: LoadOptions): string | undefined {
  const lua = (value: string) => JSON.stringify(value);
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => `wrk.headers[${lua(name)}] = ${lua(value)}`)
    .join('\n');
  if (options.uniqueQuery !== undefined) {
    const path = `${url.pathname}${url.search}`;
    const separator = path.includes('?') ? '&' : '?';
    const prefix = `${path}${separator}${options.uniqueQuery}=${runToken()}-`;
    return `${headers}\ncounter = 0\nrequest = function()\n  counter = counter + 1\n  return wrk.format("GET", ${lua(prefix)} .. counter)\nend\n`;
  }
  if (options.paths !== undefined && options.paths.length > 0) {
    const list = options.paths.map(lua).join(', ');
    return `${headers}\npaths = { ${list} }\ni = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`;
  }
  return headers === '' ? undefined : headers;
}

function wrkMillis(value: string, unit: string): number {
  const number = Number(value);
  return unit === 'us' ? number / 1000 : unit === 's' ? number * 1000 : unit === 'm' ? number * 60_000 : number;
}

/** Parses wrk's `--latency` report. */
export function parseWrkReport(report: string): RunResult {
  const latency = (percent: string) => {
    const match = new RegExp(`^\\s*${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(report);
    return match?.[1] === undefined || match[2] === undefined ? Number.NaN : wrkMillis(match[1], match[2]);
  };
  const total = Number(/(\d+) requests in/.exec(report)?.[1] ?? Number.NaN);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(report)?.[1] ?? Number.NaN),
    total,
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    errors: socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(report)?.[1] ?? 0),
  };
}

async function wrkRun(url: string, options: LoadOptions, durationSeconds: number): Promise<RunResult> {
  const target = new URL(url);
  const script = wrkScript(target, options);
  const dir = script === undefined ? undefined : mkdtempSync(join(tmpdir(), 'sitestack-wrk-'));
  try {
    const args = ['-t1', `-c${options.connections ?? 32}`, `-d${durationSeconds}s`, '--latency', '--timeout', '10s'];
    if (dir !== undefined && script !== undefined) {
      writeFileSync(join(dir, 'load.lua'), script);
      args.push('-s', join(dir, 'load.lua'));
    }
    const [command, commandArgs] = onCpus(options.pinned === true ? machineCpuSplit()?.load : undefined, 'wrk', [...args, target.toString()]);
    const { stdout } = await promisify(execFile)(command, commandArgs, { maxBuffer: 1 << 20 });
    return parseWrkReport(stdout);
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

let wrkAvailable: boolean | undefined;

/**
 * The load generator: wrk (a C program, so the server under test rather than the generator is the bottleneck on a
 * small machine) when it is installed and `BENCH_LOAD` is not `autocannon`, else autocannon in this process.
 */
export function loadGenerator(): 'wrk' | 'autocannon' {
  if (process.env.BENCH_LOAD === 'autocannon') return 'autocannon';
  wrkAvailable ??= spawnSync('wrk', ['--version']).error === undefined;
  return wrkAvailable ? 'wrk' : 'autocannon';
}

/** Drives `url` after a warm-up run, and returns throughput and latency (and the server's CPU per request). */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  if (options.pipelining !== undefined && options.pipelining > 1 && loadGenerator() === 'wrk') {
    throw new Error('pipelining is only supported with BENCH_LOAD=autocannon');
  }
  const run = loadGenerator() === 'wrk' ? wrkRun : autocannonRun;
  await run(url, options.warmupPaths === undefined ? options : { ...options, paths: options.warmupPaths }, options.warmupSeconds ?? 1);
  const others = options.alsoCpuOfPids ?? [];
  const othersCpu = () => others.reduce((sum, pid) => sum + processCpuSeconds(pid), 0);
  const othersBefore = othersCpu();
  const cpuBefore = options.cpuOfPid === undefined ? Number.NaN : processCpuSeconds(options.cpuOfPid);
  const result = await run(url, options, options.durationSeconds ?? 5);
  const cpuAfter = options.cpuOfPid === undefined ? Number.NaN : processCpuSeconds(options.cpuOfPid);
  const othersAfter = othersCpu();
  const { total, ...figures } = result;
  return {
    ...figures,
    ...(options.cpuOfPid === undefined ? {} : { cpuMicrosPerRequest: ((cpuAfter - cpuBefore) * 1e6) / total }),
    ...(others.length === 0 ? {} : { otherCpuMicrosPerRequest: ((othersAfter - othersBefore) * 1e6) / total }),
  };
}

/**
 * The best of `current` (undefined before the first round) and `result`, measure by measure: the highest throughput,
 * the lowest latencies and CPU per request. Rounds of one server differ by the host's noise, not by the code, so
 * the best round is the closest to what the code costs. A round with errors or non-2xx answers stops the suite.
 */
export function bestOf(current: LoadResult | undefined, result: LoadResult, name: string): LoadResult {
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  if (current === undefined) return result;
  return {
    ...result,
    requestsPerSecond: Math.max(current.requestsPerSecond, result.requestsPerSecond),
    p50Ms: Math.min(current.p50Ms, result.p50Ms),
    p99Ms: Math.min(current.p99Ms, result.p99Ms),
    cpuMicrosPerRequest: Math.min(current.cpuMicrosPerRequest ?? Number.NaN, result.cpuMicrosPerRequest ?? Number.NaN),
    otherCpuMicrosPerRequest: Math.min(current.otherCpuMicrosPerRequest ?? Number.NaN, result.otherCpuMicrosPerRequest ?? Number.NaN),
  };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Whether the bench runs compiled (`npm run bench` compiles src/ and bench/ with tsc into build/bench first, so
 * every figure is of the JavaScript `npm start` runs; tsx would wrap every function it creates in a `__name` call).
 */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * The `node` arguments that run a bench script, given relative to bench/ as its source (`servers/front.ts`): its
 * compiled copy beside this module when the bench runs compiled, else the source through tsx.
 */
export function benchScript(relative: string): string[] {
  const path = fileURLToPath(new URL(`./${COMPILED ? relative.replace(/\.ts$/, '.js') : relative}`, import.meta.url));
  return COMPILED ? [path] : ['--import', 'tsx', path];
}

/**
 * Starts `script` (a source path under bench/, such as `servers/front.ts`, see benchScript) in its own Node process, so the server under test and the
 * load generator do not share an event loop. The script prints `listening <url>` on stdout once it accepts requests.
 * `pinned` runs it on the server CPU of {@link machineCpuSplit} (loads of the same suite then pass `pinned` too);
 * `'load'` on the load generator's, for a process in front of the server under test that has a CPU of its own in a
 * deployment (a proxy before an application).
 */
export async function spawnServer(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: { pinned?: boolean | 'load' } = {},
): Promise<ServerProcess> {
  const split = options.pinned === undefined || options.pinned === false ? undefined : machineCpuSplit();
  const cpus = options.pinned === 'load' ? split?.load : split?.server;
  const [command, commandArgs] = onCpus(cpus, process.execPath, [...benchScript(script), ...args]);
  const child = spawn(command, commandArgs, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
    lines.on('line', (line) => {
      const match = /^listening (\S+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Runs a measuring script under bench/servers in its own `node --expose-gc` process and returns its last line, as JSON. */
export async function childJson<T>(script: string, args: string[] = []): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', ...benchScript(`servers/${script}`), ...args], {
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as T;
}

/** Runs `fn` `iterations` times and returns the per-call latency percentiles in milliseconds. */
export function timeCalls(iterations: number, fn: (i: number) => void): { p50: number; p99: number; mean: number } {
  const samples = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    fn(i);
    samples[i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  const sorted = Array.from(samples).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

export interface Verdict {
  ratio: number | undefined;
  pass: boolean | undefined;
}

export function judge(result: BenchResult, all: BenchResult[]): Verdict {
  const baseline = result.baseline === undefined ? undefined : all.find((r) => r.name === result.baseline);
  const ratio = baseline === undefined ? undefined : result.value / baseline.value;
  const target = result.target;
  if (target === undefined) return { ratio, pass: undefined };
  const checks: boolean[] = [];
  if (target.minRatio !== undefined) checks.push(ratio !== undefined && ratio >= target.minRatio);
  if (target.min !== undefined) checks.push(result.value >= target.min);
  if (target.max !== undefined) checks.push(result.value <= target.max);
  return { ratio, pass: checks.every(Boolean) };
}

function describeTarget(result: BenchResult): string {
  const target = result.target;
  if (target === undefined) return '';
  const parts: string[] = [];
  if (target.minRatio !== undefined) parts.push(`≥ ${target.minRatio}× ${result.baseline ?? ''}`.trim());
  if (target.min !== undefined) parts.push(`≥ ${format(target.min)}`);
  if (target.max !== undefined) parts.push(`≤ ${format(target.max)}`);
  return parts.join(', ');
}

/** Renders the results of one suite as a Markdown table. */
export function renderTable(suite: string, results: BenchResult[]): string {
  const rows = results.map((result) => {
    const verdict = judge(result, results);
    return [
      result.name,
      `${format(result.value)} ${result.unit}`,
      verdict.ratio === undefined ? '' : `${verdict.ratio.toFixed(2)}×`,
      describeTarget(result),
      verdict.pass === undefined ? '' : verdict.pass ? 'ok' : 'MISSED',
      result.note ?? '',
    ];
  });
  const header = ['measure', 'value', 'ratio', 'target', 'result', 'note'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [`### ${suite}`, '', line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The `q` quantile of `samples` (nearest rank, 0 < q ≤ 1); NaN for none. */
export function percentile(samples: readonly number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
