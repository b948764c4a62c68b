import Fastify from 'fastify';
import { silentLogger } from '../../src/log.js';
import { searchRoutes } from '../../src/search/api/routes.js';
import { SqliteEngine } from '../../src/search/engines/sqlite.js';
import { installErrorMapper } from '../../src/server/error-mapper.js';

/** A fastify process serving the search routes over an existing search database: `search-api.ts <file> <alias>`. */
const [file, alias] = process.argv.slice(2);
if (file === undefined || alias === undefined) throw new Error('usage: search-api.ts <search.sqlite> <alias>');
const logger = silentLogger();
const engine = new SqliteEngine({ path: file });
const app = Fastify({ logger: false });
installErrorMapper(app, logger);
await app.register(searchRoutes({ engine, index: alias, logger, rateLimit: { max: 1_000_000_000, windowMs: 60_000 } }));
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${url}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => engine.close()).then(() => process.exit(0));
});
