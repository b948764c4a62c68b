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

/**
 * The environment of `bench/servers/stack.ts` (origin and front in one process) for a stack whose origin refreshes the
 * edge at `cdnBaseUrl`, with the edge's refresh secret and no search rate limit to speak of.
 */
export function edgeStackEnv(options: { dataDir: string; frontPort: number; originPort: number; adminToken: string; cdnBaseUrl: string; refreshSecret: string }): Record<string, string> {
  return {
    DATA_DIR: options.dataDir,
    PORT: String(options.frontPort),
    ORIGIN_PORT: String(options.originPort),
    ORIGIN_ADMIN_TOKEN: options.adminToken,
    PURGE_SECRET: 'bench-purge-secret',
    CDN_BASE_URL: options.cdnBaseUrl,
    EDGE_REFRESH_SECRET: options.refreshSecret,
    SEARCH_RATE_LIMIT: '1000000/minute',
    LOG_LEVEL: 'warn',
  };
}

