import { IncomingMessage, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Logger } from '../log.js';

/** A request with these headers, never read from a socket. */
export function fakeRequest(headers: IncomingHttpHeaders = {}, method = 'GET', url = '/'): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.headers = headers;
  req.method = method;
  req.url = url;
  return req;
}

/** What a {@link fakeResponse} was sent. */
export interface Sent {
  status: number | undefined;
  /** The head as written: a flat list of names and values, or an object. */
  headers: unknown;
  body: Buffer | undefined;
  ended: boolean;
  destroyed: boolean;
}

/** A response that records its one head and its end instead of sending them. */
export function fakeResponse(): { res: ServerResponse; sent: Sent } {
  const sent: Sent = { status: undefined, headers: undefined, body: undefined, ended: false, destroyed: false };
  const res = {
    get headersSent() {
      return sent.status !== undefined;
    },
    get writableEnded() {
      return sent.ended;
    },
    get destroyed() {
      return sent.destroyed;
    },
    writeHead(status: number, headers: unknown) {
      sent.status = status;
      sent.headers = headers;
      return res;
    },
    end(body?: Buffer) {
      sent.body = body;
      sent.ended = true;
      return res;
    },
    destroy() {
      sent.destroyed = true;
    },
  };
  return { res: res as unknown as ServerResponse, sent };
}

/** A logger that keeps what it is told. */
export function keptLog(): { logger: Logger; lines: Array<{ level: 'warn' | 'error'; fields?: object; message: string }> } {
  const lines: Array<{ level: 'warn' | 'error'; fields?: object; message: string }> = [];
  return {
    lines,
    logger: {
      warn: (message) => lines.push({ level: 'warn', message }),
      error: (fields, message) => lines.push({ level: 'error', fields, message }),
    },
  };
}

/** The value of `name` in a head written as a flat list of names and values (the last one, as a hit's status is). */
export function headValue(head: unknown, name: string): string | undefined {
  const list = head as string[];
  let value: string | undefined;
  for (let i = 0; i + 1 < list.length; i += 2) if (list[i] === name) value = list[i + 1];
  return value;
}
