import { request } from 'node:http';
import type { Answer } from '../../src/edge/test-support/edge-harness.js';

/**
 * A GET of `target` exactly as written (dot segments, escapes, `#`, an absolute form), as `curl --path-as-is` sends
 * it: fetch and a URL string would resolve dot segments and drop the fragment first.
 */
export function rawGet(base: string, target: string, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: target, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** What a reader ends up with for `target`: the answer, after one permanent redirect if the first answer is one. */
export async function reached(base: string, target: string, headers: Record<string, string> = {}): Promise<{ first: Answer; last: Answer }> {
  const first = await rawGet(base, target, headers);
  const location = first.headers.location;
  if (first.status !== 301 || location === undefined) return { first, last: first };
  return { first, last: await rawGet(base, location, headers) };
}
