// The page cache as Express middleware: `PORT=3000 PURGE_SECRET=s node --import tsx server.ts`.
import express from 'express';
import { createPageCache } from '@sitestack/page-cache';

const cache = createPageCache({ purgeSecret: process.env.PURGE_SECRET });
const app = express();
let renders = 0;

// Before the routes: it answers hits and POST /__purge__ itself and lets misses through to them.
app.use(cache.handle);
app.get('/{*path}', (req, res) => {
  renders += 1;
  res.set('surrogate-key', 'page').type('html').send(`<!doctype html><title>Express</title><p>render ${renders} of ${req.originalUrl}</p>`);
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : ''}`);
});
