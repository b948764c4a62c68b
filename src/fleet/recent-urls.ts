/**
 * The URLs a front was asked for most recently, each once, at most `capacity` of them: what emptying the cache purges,
 * since the page cache is reached only through its public `purge()`. Every page the cache holds was asked for, and
 * with a capacity well above the cache's entries the URLs of all of them are here (a flood of one-off URLs past the
 * capacity can push out a page the cache still holds; docs/fleet.md says so). No I/O.
 */
export class RecentUrls {
  readonly #capacity: number;
  readonly #urls = new Set<string>();

  constructor(capacity: number) {
    this.#capacity = Math.max(1, Math.trunc(capacity));
  }

  get size(): number {
    return this.#urls.size;
  }

  add(url: string): void {
    // Re-inserted, so the Set's order is the order of last use and the first one is the oldest.
    if (this.#urls.delete(url) || this.#urls.size < this.#capacity) {
      this.#urls.add(url);
      return;
    }
    const oldest = this.#urls.values().next();
    if (oldest.done !== true) this.#urls.delete(oldest.value);
    this.#urls.add(url);
  }

  /** The pathnames a purge of every recorded URL takes (each URL's path and, when it has one, the URL with its query), in chunks of at most `size`. */
  pathnameChunks(size: number, maxLength: number): string[][] {
    const pathnames = new Set<string>();
    for (const url of this.#urls) {
      const query = url.indexOf('?');
      for (const pathname of query === -1 ? [url] : [url.slice(0, query), url]) {
        if (pathname.startsWith('/') && pathname.length <= maxLength) pathnames.add(pathname);
      }
    }
    const all = [...pathnames];
    const chunks: string[][] = [];
    for (let start = 0; start < all.length; start += size) chunks.push(all.slice(start, start + size));
    return chunks;
  }

  clear(): void {
    this.#urls.clear();
  }
}
