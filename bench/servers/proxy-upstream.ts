// The application behind `sitestack proxy` in the proxy suite: answers the 30 KB bench page after spending argv[2] ms of
// CPU (0.5: a fast server renderer), or, for `/stream`, its first part at once and the rest argv[3] ms later.
import { PAGE_BYTES, PAGE_HEADERS } from './page.js';
import { listen } from './listen.js';

const spinMs = Number(process.argv[2] ?? 0.5);
const streamDelayMs = Number(process.argv[3] ?? 50);
const half = PAGE_BYTES.length >> 1;

listen((req, res) => {
  if (req.url?.startsWith('/stream') === true) {
    res.writeHead(200, PAGE_HEADERS);
    res.write(PAGE_BYTES.subarray(0, half));
    setTimeout(() => res.end(PAGE_BYTES.subarray(half)), streamDelayMs);
    return;
  }
  const start = performance.now();
  // Busy, as a renderer is: the CPU a page costs, not a wait.
  while (performance.now() - start < spinMs);
  res.writeHead(200, { ...PAGE_HEADERS, 'content-length': String(PAGE_BYTES.length) });
  res.end(PAGE_BYTES);
});
