// The limit for Node: a bare node:http server writing the page's prebuilt bytes with the same headers; with `br`, the
// page's brotli bytes (at the page cache's default quality) with the head a compressed hit has.
import { brotliCompressSync, constants } from 'node:zlib';
import { DEFAULTS } from '../../src/page-cache/index.js';
import { listen } from './listen.js';
import { PAGE_BYTES, PAGE_HEADERS } from './page.js';

const brotli = process.argv[2] === 'br';
const body = brotli
  ? brotliCompressSync(PAGE_BYTES, { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: DEFAULTS.brotliQuality } })
  : PAGE_BYTES;
const headers = {
  ...PAGE_HEADERS,
  ...(brotli ? { 'content-encoding': 'br', vary: 'Accept-Encoding', etag: '"0123456789abcdefghijkl"' } : {}),
  'content-length': String(body.length),
};
listen((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
