import { spawn, type ChildProcess } from 'node:child_process';

const OUTPUT_LIMIT = 64 * 1024;

/** Output kept for failure messages: the last `OUTPUT_LIMIT` characters of the child's stdout and stderr. */
function captureOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Signals the child's whole process group (`next build` forks workers), ignoring a group that is already gone. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already exited.
  }
}

/**
 * Process groups still running when this test process exits, or is interrupted or terminated, are killed, so a
 * failed or stopped run leaves no Next behind (their own groups do not get the terminal's Ctrl-C).
 */
const running = new Set<ChildProcess>();
const killRunning = () => {
  for (const child of running) signalGroup(child, 'SIGKILL');
};
process.on('exit', killRunning);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, function onSignal() {
    killRunning();
    // Alone, this listener would keep the process alive: the signal is raised again without it. Other listeners
    // decide for themselves.
    if (process.listenerCount(signal) === 1) {
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    }
  });
}

/** A Node process in a process group of its own, its output kept, killed with this test process at the latest. */
export interface TrackedProcess {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr, the last 64 KiB), for failure messages. */
  output(): string;
  /** SIGTERM to its process group, SIGKILL after 5 s; resolves when it has exited. */
  stop(): Promise<void>;
  /** SIGKILL to its process group at once (the server dies mid-run); resolves when it has exited. */
  kill(): Promise<void>;
}

/** Runs `node <args>` in `cwd`. */
export function spawnTracked(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): TrackedProcess {
  const child = spawn(process.execPath, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return {
    child,
    output: captureOutput(child),
    async stop() {
      signalGroup(child, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
      await exited(child);
      clearTimeout(timer);
    },
    async kill() {
      signalGroup(child, 'SIGKILL');
      await exited(child);
    },
  };
}
