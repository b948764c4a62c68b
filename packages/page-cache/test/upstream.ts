import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { closeServer, listen, type Renderer } from './helpers.js';

/** What the upstream answers next: status, headers and body, as a test sets them. */
export interface UpstreamAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

/** A plain node:http application standing for the site behind the cache; `answer` is read on every request. */
export interface Upstream {
  url: string;
  answer: (req: IncomingMessage) => UpstreamAnswer;
  close(): Promise<void>;
}

export async function startUpstream(answer: Upstream['answer']): Promise<Upstream> {
  const upstream: Upstream = { url: '', answer, close: async () => undefined };
  const { server, url } = await listen((req, res) => {
    const { status, headers, body } = upstream.answer(req);
    // Head first, then the body in two writes: the cache sees a response that streams, as from a real application.
    res.writeHead(status, headers);
    res.write(body.slice(0, 1));
    setImmediate(() => res.end(body.slice(1)));
  });
  upstream.url = url;
  upstream.close = () => closeServer(server);
  return upstream;
}

/** Hop-by-hop fields (RFC 9110 §7.6.1) a forwarder does not pass on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer']);

/**
 * A renderer that forwards the request to `upstream` and streams its answer back (head as received, body piped),
 * answering 502 itself when the upstream cannot be reached: the page cache in front of another application.
 */
export function forwardTo(upstream: { url: string }): Renderer {
  return (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const headers = { ...req.headers };
      delete headers.host;
      const forwarded = httpRequest(`${upstream.url}${req.url ?? '/'}`, { method: req.method, headers, agent: false }, (answer) => {
        const passed: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) passed[name] = value;
        res.writeHead(answer.statusCode ?? 502, passed);
        answer.pipe(res);
        answer.on('end', resolve);
      });
      forwarded.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
        resolve();
      });
      forwarded.end();
    });
}

/** A 200 HTML answer with these headers, its body naming the version shown. */
export function page(version: number, headers: OutgoingHttpHeaders = {}): UpstreamAnswer {
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body: `<p>v${version}</p>` };
}
