import type { IncomingMessage, ServerResponse } from 'node:http';
import { chooseCoding, type Coding, type Compressed, etagOf, ifNoneMatchMatches, type Preferences } from '@sitestack/page-cache';

/** One coding of a static file, with both of its heads prepared, as the page cache prepares a stored page. */
interface Prepared {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: readonly string[];
  readonly notModifiedHeaders: readonly string[];
}

/** An immutable file in every coding it is served in. */
export interface StaticFile {
  readonly representations: Readonly<Record<Coding, Prepared>>;
  /** The codings worth sending: those smaller than the identity bytes. */
  readonly available: Readonly<Record<Compressed, boolean>>;
}

/** The fields a 304 repeats (RFC 9110 §15.4.5), as the page cache's hits do. */
const NOT_MODIFIED_FIELDS = new Set(['cache-control', 'vary', 'etag']);

function prepare(coding: Coding, body: Buffer, head: Readonly<Record<string, string>>): Prepared {
  const etag = etagOf(body);
  const fields: [string, string][] = [...Object.entries(head), ['vary', 'Accept-Encoding'], ['etag', etag]];
  if (coding !== 'identity') fields.push(['content-encoding', coding]);
  const headers = [...fields, ['content-length', String(body.length)]].flat();
  const notModifiedHeaders = fields.filter(([name]) => NOT_MODIFIED_FIELDS.has(name)).flat();
  return { body, etag, headers, notModifiedHeaders };
}

/**
 * Prepares a file whose bytes never change (the client bundle) in identity and in each coding given, with `head`
 * (`Content-Type`, `Cache-Control`) on every answer, `Vary: Accept-Encoding`, a strong ETag per coding, the exact
 * `Content-Length`.
 */
export function prepareStaticFile(identity: Buffer, encoded: Readonly<Record<Compressed, Buffer>>, head: Readonly<Record<string, string>>): StaticFile {
  return {
    representations: { identity: prepare('identity', identity, head), br: prepare('br', encoded.br, head), gzip: prepare('gzip', encoded.gzip, head) },
    available: { br: encoded.br.length < identity.length, gzip: encoded.gzip.length < identity.length },
  };
}

/**
 * Answers a GET or HEAD of `file` in the coding `preferences` (the request's `Accept-Encoding`) choose, as the page
 * cache chooses for pages; 304 when `If-None-Match` names that coding's ETag.
 */
export function sendStaticFile(req: IncomingMessage, res: ServerResponse, file: StaticFile, preferences: Preferences): void {
  const chosen = file.representations[chooseCoding(preferences, file.available)];
  if (ifNoneMatchMatches(req.headers['if-none-match'], chosen.etag)) {
    res.writeHead(304, chosen.notModifiedHeaders as string[]);
    res.end();
    return;
  }
  res.writeHead(200, chosen.headers as string[]);
  res.end(req.method === 'HEAD' ? undefined : chosen.body);
}
