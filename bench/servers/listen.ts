import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts `listener` on 127.0.0.1 and announces `listening <url>` on stdout, as spawnServer expects. */
export function listen(listener: RequestListener): void {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
