import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a stand-in answers searches: as the real service, or one of the failures a client must survive. */
export type Behaviour = 'normal' | 'status-500' | 'wrong-shape' | 'truncated-json' | 'html' | 'huge' | 'hang';

export interface StandIn {
  url: string;
  /** Searches received (requests that passed authentication, whatever the behaviour). */
  readonly searches: number;
  behave(behaviour: Behaviour): void;
  close(): Promise<void>;
}

export interface StandInHandler {
  /** Answers a request; `search` is called once the request is found well-formed and authenticated. */
  (request: IncomingMessage, body: string, response: ServerResponse, search: () => Behaviour): void;
}

const HUGE_BYTES = 8 * 1024 * 1024;

/** The failures answered at once with one whole body: a status, a content type and what the body says. */
const CANNED_FAILURES: Record<'status-500' | 'wrong-shape' | 'truncated-json' | 'html', { status: number; contentType: string; body: string }> = {
  'status-500': { status: 500, contentType: 'application/json', body: '{"errorMessage":"internal error"}' },
  'wrong-shape': { status: 200, contentType: 'application/json', body: '{"unexpected":[1,2,3]}' },
  'truncated-json': { status: 200, contentType: 'application/json', body: '{"resultCount":1,"results":[{"trackName":"Imag' },
  html: { status: 200, contentType: 'text/html', body: '<!doctype html><title>Service Unavailable</title><h1>Try again later</h1>' },
};

/** Sends the failure `behaviour` describes; false when the behaviour is `normal` and the real answer must be sent. */
export function misbehave(behaviour: Behaviour, response: ServerResponse): boolean {
  switch (behaviour) {
    case 'normal':
      return false;
    case 'status-500':
    case 'wrong-shape':
    case 'truncated-json':
    case 'html': {
      const { status, contentType, body } = CANNED_FAILURES[behaviour];
      response.writeHead(status, { 'content-type': contentType }).end(body);
      return true;
    }
    case 'huge': {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = `{"pad":"${'x'.repeat(64 * 1024)}"},`;
      response.write('{"resultCount":0,"results":[');
      const writeMore = () => {
        for (let written = 0; written < HUGE_BYTES; written += chunk.length) {
          if (response.destroyed) return;
          response.write(chunk);
        }
        response.end('{}]}');
      };
      writeMore();
      return true;
    }
    case 'hang':
      return true;
  }
}

/** Starts a stand-in on 127.0.0.1 with an ephemeral port. */
export async function startStandIn(handler: StandInHandler): Promise<StandIn> {
  let behaviour: Behaviour = 'normal';
  let searches = 0;
  let closing: Promise<void> | undefined;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      handler(request, Buffer.concat(chunks).toString('utf8'), response, () => {
        searches++;
        return behaviour;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get searches() {
      return searches;
    },
    behave(next) {
      behaviour = next;
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Lower-case words without accents: how the stand-ins match search terms, loosely like the real services. */
export function words(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/** A track is found when its fields hold every word of the query, or the query holds every word of its title. */
export function trackMatches(query: string, track: { title: string; artist: string; album: string }): boolean {
  const queryWords = words(query);
  const haystack = new Set([track.title, track.artist, track.album].flatMap(words));
  if (queryWords.every((word) => haystack.has(word))) return true;
  const asked = new Set(queryWords);
  return words(track.title).every((word) => asked.has(word));
}
