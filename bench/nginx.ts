import { findNginx, NGINX_INSTALL_HINT } from '../src/edge/index.js';

/** The nginx binary a bench of the edge runs (NGINX_BIN, else `nginx` on PATH); throws naming the package when there is none. */
export function requireNginx(bench: string): string {
  const nginx = findNginx(process.env.NGINX_BIN ?? 'nginx', process.env.PATH);
  if (nginx === undefined) throw new Error(`the ${bench} bench needs nginx: ${NGINX_INSTALL_HINT}`);
  return nginx;
}
