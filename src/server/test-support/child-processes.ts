import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { basename } from 'node:path';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a fresh connection (no agent, `Connection: close`), so a cluster's round-robin can hand it to any worker. */
export function sendFresh(url: string, method = 'GET', body?: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.end(body);
  });
}

/**
 * `node --import tsx <script> …args` with `env` over this process's environment and stderr passed through. The child
 * is returned at once (so a caller can stop it whatever happens); `ready` resolves with the first match of `pattern`
 * in its stdout, and rejects if it exits before printing one.
 */
export function spawnTypeScript(script: string, args: readonly string[], pattern: RegExp, env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<RegExpExecArray> } {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const ready = new Promise<RegExpExecArray>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match !== null) resolve(match);
    });
    child.once('exit', (code) => reject(new Error(`${basename(script)} ${args.join(' ')} exited with ${code} before printing ${pattern}: ${output}`)));
  });
  return { child, ready };
}
