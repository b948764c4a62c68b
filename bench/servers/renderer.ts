import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_BYTES, PAGE_HEADERS, renderPage } from './page.js';

/** The renderer every benchmark server puts behind its cache: React SSR per request, or the prebuilt bytes. */
export function renderer(kind: string | undefined): (req: IncomingMessage, res: ServerResponse) => void {
  if (kind === 'static') {
    return (_req, res) => {
      res.writeHead(200, PAGE_HEADERS);
      res.end(PAGE_BYTES);
    };
  }
  return (req, res) => {
    res.writeHead(200, PAGE_HEADERS);
    res.end(renderPage(req.url ?? '/'));
  };
}
