import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubPost {
  oid: string;
  title: string;
  body_html: string;
  summary?: string;
}

export interface StubOrigin {
  url: string;
  posts: StubPost[];
  /** oids answered with this status instead of their post. */
  failures: Map<string, number>;
  close(): Promise<void>;
}

/** A local origin speaking the origin JSON API's shapes (DESIGN §5) for the posts given. */
export async function startStubOrigin(posts: StubPost[]): Promise<StubOrigin> {
  const failures = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/api/v1/plog/') {
      return send(200, {
        groups: [{ date: '2026.11', posts: stub.posts.map((post) => ({ oid: post.oid, title: post.title, pub_date: '2026-11-01T00:00:00Z', categories: [], comments: 0 })) }],
      });
    }
    const match = /^\/api\/v1\/plog\/([^/]+)$/.exec(path);
    const oid = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    const post = stub.posts.find((candidate) => candidate.oid === oid);
    const failure = oid === undefined ? undefined : failures.get(oid);
    if (failure !== undefined) return send(failure, { error: 'failure' });
    if (post === undefined) return send(404, { error: 'not found' });
    return send(200, {
      post: { oid: post.oid, title: post.title, body_html: post.body_html, summary: post.summary ?? '', pub_date: '2026-11-01T00:00:00Z', categories: ['x'] },
      comments: { count: 0, items: [] },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stub: StubOrigin = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    failures,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return stub;
}
