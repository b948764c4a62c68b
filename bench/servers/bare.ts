// The limit for Node: a bare node:http server writing the page's prebuilt bytes with the same headers.
import { listen } from './listen.js';
import { PAGE_BYTES, PAGE_HEADERS } from './page.js';

const headers = { ...PAGE_HEADERS, 'content-length': String(PAGE_BYTES.length) };
listen((_req, res) => {
  res.writeHead(200, headers);
  res.end(PAGE_BYTES);
});
