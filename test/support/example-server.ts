import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface ExampleServer {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Runs a server file the way its header says (`node --import tsx <file>`, or plain `node` with `loader: false`; PORT=0) and resolves with the URL it prints
 * as `listening on <url>`; rejects with what it printed when it exits first or says nothing within `timeoutMs`.
 */
export async function startExampleServer(file: string, env: Record<string, string>, options: { cwd?: string; timeoutMs?: number; loader?: boolean } = {}): Promise<ExampleServer> {
  const child: ChildProcess = spawn(process.execPath, options.loader === false ? [file] : ['--import', 'tsx', file], {
    cwd: options.cwd,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no 'listening on' line within ${options.timeoutMs ?? 20_000} ms`), options.timeoutMs ?? 20_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${file}: ${why}; it printed:\n${output}`));
    };
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1]!.replace(/\/$/, ''));
    });
    child.once('exit', (code) => fail(`exited with ${code} before listening`));
  });
  child.removeAllListeners('exit');
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
