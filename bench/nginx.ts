import { userInfo } from 'node:os';
import { edgePaths, findNginx, NGINX_INSTALL_HINT, spawnNginx, waitUntilListening, workerUser, writeEdgeConfig } from '../src/edge/index.js';

/** The nginx binary a bench of the edge runs (NGINX_BIN, else `nginx` on PATH); throws naming the package when there is none. */
export function requireNginx(bench: string): string {
  const nginx = findNginx(process.env.NGINX_BIN ?? 'nginx', process.env.PATH);
  if (nginx === undefined) throw new Error(`the ${bench} bench needs nginx: ${NGINX_INSTALL_HINT}`);
  return nginx;
}

/**
 * The real nginx edge as `sitestack edge` configures it, on `edgePort` in front of the front on `frontPort`, in
 * `edgeDir`, with the refresh secret the origin's purge outbox sends. `ready` resolves once it listens; stop it
 * whatever `ready` does.
 */
export function spawnBenchEdge(nginx: string, edgeDir: string, ports: { edge: number; front: number }, refreshSecret: string): { edge: ReturnType<typeof spawnNginx>; ready(): Promise<void> } {
  const edge = spawnNginx(
    nginx,
    edgeDir,
    writeEdgeConfig({
      edgeDir,
      listen: { host: '127.0.0.1', port: ports.edge },
      upstreams: [{ host: '127.0.0.1', port: ports.front }],
      user: workerUser(process.getuid?.(), userInfo().username),
      refreshSecret,
    }),
  );
  return { edge, ready: () => waitUntilListening(edge, edgePaths(edgeDir).pid) };
}
