/**
 * A shared second tier behind a page cache's memory: a store every process of a fleet reads and writes (Redis in
 * sitestack), so a page rendered once serves every front, a new front starts warm, and one front renders a page after
 * a change while the others wait for it. The page cache consults it on a miss only; a hit never touches it.
 *
 * An implementation never rejects and never throws: when it cannot answer within its own bounded time it says
 * `{ role: 'off' }` and the cache renders as it would without a tier.
 */
export interface SharedTier {
  /**
   * Looks `key` up for a miss (or a soft purge's revalidation). A fresh copy is answered as `found`. Otherwise, when
   * `lead` is true, the caller asks to be the fleet's one render of the key: `lead` when it got the short lock (its
   * `ticket` goes to {@link store} or {@link release}), `wait` when another process holds it. A copy marked stale by a
   * soft purge comes with `lead` and `wait` too, with `staleSince`.
   */
  lookup(key: string, lead: boolean): Promise<SharedLookup>;
  /**
   * Stores the copy a render made under `ticket` (from the `lead` answer), and releases the lock. The tier refuses it
   * when a purge may have overtaken the render (a purge reached the tier after the ticket was given). Fire and forget.
   */
  store(key: string, copy: SharedCopy, ticket: SharedTicket): void;
  /** Releases the lock of a render that stored nothing (its response was not storable, or it failed). Fire and forget. */
  release(key: string, ticket: SharedTicket): void;
}

/** What the tier gave to the render it lets lead; opaque to the cache. */
export type SharedTicket = string;

export type SharedLookup =
  | { readonly role: 'found'; readonly copy: SharedCopy }
  | { readonly role: 'lead'; readonly ticket: SharedTicket; readonly copy?: SharedCopy | undefined; readonly staleSince?: number | undefined }
  | { readonly role: 'wait'; readonly copy?: SharedCopy | undefined; readonly staleSince?: number | undefined }
  | { readonly role: 'off' };

/**
 * A stored response as the tier keeps it: what any process rebuilds the entry from, and what a purge finds it by.
 * Built and read by the page cache only (`sharedCopyOf`, `entryOfSharedCopy`); the tier stores `head` and `body` as
 * they are.
 */
export interface SharedCopy {
  /** The response's head and the layout of `body`, as JSON text (see shared-copy.ts). */
  readonly head: string;
  /** The stored bodies end to end: the compressed copies when the response is compressible, else its identity body. */
  readonly body: Buffer;
  /** The pathnames whose purge removes it (the purge rule, inverted), so a purge finds it without a scan. */
  readonly targets: readonly string[];
  /** The surrogate keys it names. */
  readonly keys: readonly string[];
}
