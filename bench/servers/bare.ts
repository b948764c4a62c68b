// The limit for Node: a bare node:http server writing the page's prebuilt bytes with the same headers; with `br`, the
// page's brotli bytes (the page cache's own parameters, so the very bytes it stores) with the head a compressed hit
// has. `bare.ts br prose`: the prose page's (page.ts) instead of the listing's.
import { brotliCompressSync, constants } from 'node:zlib';
import { DEFAULTS } from '@sitestack/page-cache';
import { listen } from './listen.js';
import { PAGE_BYTES, PAGE_HEADERS, PROSE_BYTES } from './page.js';

const brotli = process.argv[2] === 'br';
const page = process.argv[3] === 'prose' ? PROSE_BYTES : PAGE_BYTES;
const body = brotli
  ? brotliCompressSync(page, {
      params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: DEFAULTS.brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: page.length },
    })
  : page;
const headers = {
  ...PAGE_HEADERS,
  ...(brotli ? { 'content-encoding': 'br', vary: 'Accept-Encoding', etag: '"0123456789abcdefghijkl"' } : {}),
  'content-length': String(body.length),
};
listen((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
