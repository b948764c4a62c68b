import { compress, type CompressionLevels } from './compress.js';
import { withEncodings, type CacheEntry, type Representation } from './entry.js';
import { logUrl, type Logger } from './log.js';
import type { Compressed } from './negotiate.js';
import type { EntryStore, RequestCounters } from './store.js';

type Waiter = (held: Representation) => void;

/**
 * The encodings of held entries made for hits: a coding an entry does not hold yet is compressed once, when a client
 * first asks for it, and kept beside the identity body, so that its later hits send it as it is.
 */
export class EncodingKeeper {
  /**
   * Encodings being compressed on the thread pool (large bodies), by response and coding: hits for one wait for it.
   * Keyed by the identity representation, which an entry keeps when it is replaced by one with another encoding.
   */
  readonly #compressing = new WeakMap<Representation, Map<Compressed, Waiter[]>>();

  constructor(
    private readonly store: Pick<EntryStore, 'peek' | 'replace'>,
    private readonly levels: CompressionLevels,
    private readonly counters: Pick<RequestCounters, 'compressions'>,
    private readonly logger: Logger,
  ) {}

  /**
   * The `coding` representation of `entry`, or of the entry `key` holds now if it is still that response (a follower
   * of a single flight holds the entry as first stored, which may have gained encodings since).
   */
  held(key: string, entry: CacheEntry, coding: Compressed): Representation | undefined {
    return entry[coding] ?? this.#current(key, entry)?.[coding];
  }

  /**
   * Compresses `entry` in `coding` once and hands `use` the representation: at once for a body the compressor takes
   * synchronously, else when the thread pool is done, with every other request for it meanwhile. A failed compression
   * is logged and `use` gets the identity representation.
   */
  encode(key: string, entry: CacheEntry, coding: Compressed, use: Waiter): void {
    let byCoding = this.#compressing.get(entry.identity);
    const waiting = byCoding?.get(coding);
    if (waiting !== undefined) {
      waiting.push(use);
      return;
    }
    const waiters = [use];
    let finished = false;
    this.counters.compressions++;
    compress(entry.identity.body, coding, this.levels, (error, bytes) => {
      finished = true;
      byCoding?.delete(coding);
      let held = entry.identity;
      if (bytes === undefined) this.logger.error({ err: error, url: logUrl(key) }, `page cache: ${coding} compression failed; sent identity`);
      else held = this.#keep(key, entry, coding, bytes);
      for (const waiter of waiters) waiter(held);
    });
    // Still running (a large body): later hits for this coding join the waiters instead of compressing again.
    if (!finished) {
      if (byCoding === undefined) this.#compressing.set(entry.identity, (byCoding = new Map()));
      byCoding.set(coding, waiters);
    }
  }

  /** The entry `key` holds now, if it is still the response `from` was. */
  #current(key: string, from: CacheEntry): CacheEntry | undefined {
    const current = this.store.peek(key);
    return current !== undefined && current.identity === from.identity ? current : undefined;
  }

  /**
   * Keeps `bytes` as the `coding` encoding of the entry `key` holds, if that is still the response they were made from
   * (the entry, with its heads prepared, is replaced by one with the encoding, which counts in `maxBytes`). Returns the
   * representation of those bytes, kept or not.
   */
  #keep(key: string, from: CacheEntry, coding: Compressed, bytes: Buffer): Representation {
    const current = this.#current(key, from);
    const next = withEncodings(current ?? from, { [coding]: bytes });
    if (current !== undefined && current[coding] === undefined) this.store.replace(key, current, next);
    return next[coding]!;
  }
}
