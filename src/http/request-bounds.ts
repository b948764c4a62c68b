/**
 * How much of a request line and its headers every layer reads (edge, front, origin). Beyond them a request is answered
 * 414 or 431 before any route sees it, and without a log line: a client chooses its URLs and headers, and a flood of
 * long ones must cost neither memory nor disk.
 */
export const REQUEST_BOUNDS = {
  /**
   * The longest request target (path and query) in bytes: longer is 414 at the front and the origin. The edge bounds
   * the whole request line by the same number, so whatever it forwards is within this.
   */
  maxUrlBytes: 8 * 1024,
  /** The request line and every header together, in bytes (node:http's `maxHeaderSize`): beyond it 431. */
  maxHeaderBytes: 16 * 1024,
} as const;

/** True when a request target is beyond `REQUEST_BOUNDS.maxUrlBytes` (node gives one character per byte). */
export function urlTooLong(url: string | undefined): boolean {
  return url !== undefined && url.length > REQUEST_BOUNDS.maxUrlBytes;
}
