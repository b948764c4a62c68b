import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS } from '../error-codes.js';
import { edgePaths, renderNginxConfig, TEMP_KINDS, type EdgeConfigOptions } from './nginx-config.js';

/** Where nginx usually lives when it is not on PATH (Debian puts it in /usr/sbin, which a normal user's PATH lacks). */
export const NGINX_FALLBACK_DIRS = ['/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'] as const;

export const NGINX_INSTALL_HINT = 'apt-get install nginx';

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The nginx executable: `bin` itself when it is a path, else the first `bin` on `searchPath` or in the usual sbin
 * directories. Undefined when there is none.
 */
export function findNginx(bin: string, searchPath: string | undefined): string | undefined {
  if (bin.includes('/')) return isExecutableFile(bin) ? bin : undefined;
  const dirs = [...(searchPath ?? '').split(delimiter).filter((dir) => isAbsolute(dir)), ...NGINX_FALLBACK_DIRS];
  return dirs.map((dir) => join(dir, bin)).find(isExecutableFile);
}

/** Like `findNginx`, but a missing nginx is an AppError that says how to install it. */
export function requireNginx(bin: string, searchPath: string | undefined): string {
  const found = findNginx(bin, searchPath);
  if (found !== undefined) return found;
  const where = bin.includes('/')
    ? `'${bin}' is not an executable file`
    : `'${bin}' is neither on PATH nor in ${NGINX_FALLBACK_DIRS.join(', ')}`;
  throw ERRORS.NGINX_NOT_FOUND(where, NGINX_INSTALL_HINT);
}

/**
 * The `user` directive nginx needs: when it starts as root it would drop its workers to `nobody`, who cannot write the
 * cache under a root-owned DATA_DIR, so the workers keep the current user. Not root: no directive (nginx would warn).
 */
export function workerUser(uid: number | undefined, username: string): string | undefined {
  return uid === 0 ? username : undefined;
}

/** Creates the edge directory and writes its nginx.conf (atomically, readable by its owner only); returns the config file's path. */
export function writeEdgeConfig(options: EdgeConfigOptions): string {
  const paths = edgePaths(options.edgeDir);
  const text = renderNginxConfig(options);
  for (const dir of [paths.cache, ...TEMP_KINDS.map((kind) => join(paths.temp, kind))]) mkdirSync(dir, { recursive: true });
  const partial = `${paths.config}.${process.pid}.tmp`;
  // Owner only: the file holds the refresh secret.
  writeFileSync(partial, text, { mode: 0o600 });
  chmodSync(partial, 0o600);
  renameSync(partial, paths.config);
  return paths.config;
}

function nginxArgs(edgeDir: string, configFile: string): string[] {
  // `-e stderr` keeps nginx from opening its compiled-in error log (often root-only) before it has read the config.
  return ['-e', 'stderr', '-p', `${edgeDir}/`, '-c', configFile];
}

/** Runs `nginx -t` on the config; a config nginx refuses is an AppError carrying nginx's own message. */
export async function checkNginxConfig(nginx: string, edgeDir: string, configFile: string): Promise<void> {
  const child = spawn(nginx, ['-t', '-q', ...nginxArgs(edgeDir, configFile)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  if (code !== 0) {
    throw ERRORS.NGINX_CONFIG_INVALID(configFile, output.trim() || `exit status ${code}`);
  }
}

/** A running nginx master process. */
export interface NginxProcess {
  child: ChildProcess;
  /** Resolves with nginx's exit status (128 + signal number when a signal ended it). */
  exited: Promise<number>;
  /** Fast shutdown (SIGTERM to the master, which stops its workers); resolves when the master has exited. */
  stop(): Promise<number>;
}

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

/** How `spawnNginx` runs nginx. */
export interface SpawnNginxOptions {
  /**
   * `inherit` shows nginx's messages on this process's stderr (the CLI); `pipe` leaves them on `child.stderr`.
   * @default 'inherit'
   */
  stdio?: 'inherit' | 'pipe';
  /**
   * Run nginx in its own process group, so `stop` can end the master and its workers even if the master hangs (tests).
   * The CLI keeps nginx in its group, so a Ctrl-C in the terminal reaches nginx too.
   * @default false
   */
  ownProcessGroup?: boolean;
  /**
   * How long `stop` waits after SIGTERM before it sends SIGKILL (to the whole group when nginx has its own).
   * @default 5000
   */
  killAfterMs?: number;
}

export const SPAWN_DEFAULTS = { stdio: 'inherit', ownProcessGroup: false, killAfterMs: 5_000 } as const satisfies SpawnNginxOptions;

/** Starts nginx in the foreground on an already written config. */
export function spawnNginx(nginx: string, edgeDir: string, configFile: string, options: SpawnNginxOptions = {}): NginxProcess {
  const stdio = options.stdio ?? SPAWN_DEFAULTS.stdio;
  const ownProcessGroup = options.ownProcessGroup ?? SPAWN_DEFAULTS.ownProcessGroup;
  const child = spawn(nginx, nginxArgs(edgeDir, configFile), { stdio: ['ignore', stdio, stdio], detached: ownProcessGroup });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', (error) => reject(ERRORS.NGINX_START_FAILED.with({ cause: error }, nginx, error.message)));
    child.once('exit', (code, signal) => resolve(code ?? 128 + (signal === null ? 0 : (SIGNAL_NUMBERS[signal] ?? 0))));
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      if (ownProcessGroup && child.pid !== undefined) process.kill(-child.pid, name);
      else child.kill(name);
    } catch {
      // Already gone.
    }
  };
  return {
    child,
    exited,
    async stop() {
      const running = child.exitCode === null && child.signalCode === null && child.pid !== undefined;
      if (running) signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), options.killAfterMs ?? SPAWN_DEFAULTS.killAfterMs);
      try {
        const status = await exited;
        // The workers leave with the master; a group of its own is swept in case one lingers.
        if (ownProcessGroup) signal('SIGKILL');
        return status;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/**
 * Resolves once nginx has written its pid file, which it does only after binding every listen socket; rejects when
 * nginx exits first (a port in use, a bad config) or after `timeoutMs`.
 */
export async function waitUntilListening(nginx: NginxProcess, pidFile: string, timeoutMs = 10_000): Promise<void> {
  let exitStatus: number | undefined;
  nginx.exited.then(
    (status) => (exitStatus = status),
    () => (exitStatus = -1),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitStatus !== undefined) throw ERRORS.NGINX_EXITED(exitStatus);
    if (readPid(pidFile) === nginx.child.pid) return;
    if (Date.now() > deadline) throw ERRORS.NGINX_NOT_READY(timeoutMs);
    await sleep(20);
  }
}

function readPid(pidFile: string): number | undefined {
  try {
    return Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    return undefined;
  }
}
