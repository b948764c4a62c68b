/**
 * Tickets and the lookup script's replies, checked rather than trusted (whatever answers on Redis's port). Pure.
 */
import type { SharedCopy, SharedLookup, SharedTicket } from '@sitestack/page-cache';

/** A lock token: random, hex. */
const TOKEN = /^[0-9a-f]{32}$/;
const COUNT = /^\d{1,20}$/;

/** What a ticket carries: the purge count its lookup saw, and its lock's token. */
export interface TicketParts {
  purges: string;
  token: string;
}

export function ticketOf(parts: TicketParts): SharedTicket {
  return `${parts.purges}.${parts.token}`;
}

/** The parts of a ticket this tier gave; undefined for anything else. */
export function parseTicket(ticket: unknown): TicketParts | undefined {
  if (typeof ticket !== 'string') return undefined;
  const dot = ticket.indexOf('.');
  const purges = ticket.slice(0, dot);
  const token = ticket.slice(dot + 1);
  return dot > 0 && COUNT.test(purges) && TOKEN.test(token) ? { purges, token } : undefined;
}

/** A length-prefixed list (`<bytes>:<text>…`, as the scripts write it); undefined when it does not parse. */
export function decodeList(encoded: Buffer): string[] | undefined {
  const items: string[] = [];
  let at = 0;
  while (at < encoded.length) {
    const colon = encoded.indexOf(0x3a, at);
    const digits = colon < 0 ? '' : encoded.toString('latin1', at, colon);
    if (!/^\d{1,10}$/.test(digits)) return undefined;
    const end = colon + 1 + Number(digits);
    if (end > encoded.length) return undefined;
    items.push(encoded.toString('utf8', colon + 1, end));
    at = end;
  }
  return items;
}

const isBuffer = (value: unknown): value is Buffer => Buffer.isBuffer(value);

function copyOf(reply: unknown): SharedCopy | undefined {
  if (!Array.isArray(reply) || reply.length !== 4 || !reply.every(isBuffer)) return undefined;
  const [head, body, targets, keys] = reply as Buffer[] as [Buffer, Buffer, Buffer, Buffer];
  const targetList = decodeList(targets);
  const keyList = decodeList(keys);
  if (targetList === undefined || keyList === undefined) return undefined;
  return { head: head.toString('utf8'), body, targets: targetList, keys: keyList };
}

/** A soft purge's mark: a time in ms, or none (''). */
function staleSinceOf(reply: unknown): number | undefined | false {
  if (!isBuffer(reply)) return false;
  if (reply.length === 0) return undefined;
  const text = reply.toString('latin1');
  return /^\d{1,16}$/.test(text) ? Number(text) : false;
}

/**
 * The lookup's answer from the script's reply (see LOOKUP_SCRIPT), with `token` as the lock's token when it leads;
 * undefined when the reply is not one the script gives. 'none' (nothing held, no lead asked) is `off`: render alone.
 */
export function lookupAnswer(reply: unknown, token: string): SharedLookup | undefined {
  if (!Array.isArray(reply) || !isBuffer(reply[0])) return undefined;
  const role = reply[0].toString('latin1');
  if (role === 'none' && reply.length === 1) return { role: 'off' };
  if (role === 'found' && reply.length === 2) {
    const copy = copyOf(reply[1]);
    return copy === undefined ? undefined : { role: 'found', copy };
  }
  if ((role !== 'lead' || reply.length !== 4) && (role !== 'wait' || reply.length !== 3)) return undefined;
  const held: unknown = reply[1];
  const copy = Array.isArray(held) && held.length === 0 ? undefined : copyOf(held);
  const staleSince = staleSinceOf(reply[2]);
  if ((copy === undefined && !(Array.isArray(held) && held.length === 0)) || staleSince === false) return undefined;
  const known = copy === undefined ? {} : { copy, staleSince };
  if (role === 'wait') return { role: 'wait', ...known };
  const purges = isBuffer(reply[3]) ? reply[3].toString('latin1') : '';
  return COUNT.test(purges) ? { role: 'lead', ticket: ticketOf({ purges, token }), ...known } : undefined;
}
