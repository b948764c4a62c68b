import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** An answer as it came over the wire: nothing decoded. */
export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  bytes: Buffer;
}

export interface RawRequestOptions {
  /** Sent as given, and only these (no Accept-Encoding unless named; any Host, which fetch cannot set). */
  headers?: Record<string, string>;
  /** @default 'GET' */
  method?: string;
  /** The local address the request leaves from (a trusted or an untrusted peer). @default the system's choice */
  localAddress?: string;
}

/**
 * A request for `target` on a fresh connection to `base`, the target exactly as written (dot segments, escapes, `#`,
 * an absolute form), as `curl --path-as-is` sends it: fetch and a URL string would resolve dot segments first.
 */
export function rawRequest(base: string, target: string, options: RawRequestOptions = {}): Promise<RawReply> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false, ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A reply's body with its content coding (br, gzip) undone. */
export function decodedBody(reply: RawReply): Buffer {
  const coding = reply.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(reply.bytes);
  if (coding === 'gzip') return gunzipSync(reply.bytes);
  return reply.bytes;
}

/** {@link RawReply} with its body read as UTF-8 text, as sent (not decoded). */
export interface RawTextReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** {@link rawRequest}, its body as text. */
export async function rawText(base: string, target: string, options: RawRequestOptions = {}): Promise<RawTextReply> {
  const { status, headers, bytes } = await rawRequest(base, target, options);
  return { status, headers, body: bytes.toString('utf8') };
}
