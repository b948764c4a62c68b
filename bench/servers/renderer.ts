import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_BYTES, PAGE_HEADERS, PROSE_BYTES, renderPage } from './page.js';

/** The renderer every benchmark server puts behind its cache: React SSR per request, or prebuilt bytes (`static`: the listing, `prose`: a post). */
export function renderer(kind: string | undefined): (req: IncomingMessage, res: ServerResponse) => void {
  if (kind === 'static' || kind === 'prose') {
    const bytes = kind === 'prose' ? PROSE_BYTES : PAGE_BYTES;
    return (_req, res) => {
      res.writeHead(200, PAGE_HEADERS);
      res.end(bytes);
    };
  }
  return (req, res) => {
    res.writeHead(200, PAGE_HEADERS);
    res.end(renderPage(req.url ?? '/'));
  };
}
