import { CONTENT_TYPES, imageUrl, type ImageFormat } from './names.js';

/*
 * How a stored image is offered to a browser: the markup's numbers, made once when a post is saved. Pure.
 */

/** An image as the origin's table holds it: the widths and formats written, and the widest file's dimensions. */
export interface StoredImage {
  hash: string;
  /** Ascending; the widest is `width`. */
  widths: readonly number[];
  /** Best first: `webp`, then the upload's own format when it is another (the fallback every browser shows). */
  formats: readonly ImageFormat[];
  width: number;
  height: number;
}

/** What a Markdown image of ours renders to: a `<picture>` of `sources` around an `<img>` (a bare `<img>` without them). */
export interface ResponsiveImage {
  /** The widest file in the fallback format: the `<img>`'s `src`. */
  src: string;
  srcset: string;
  sizes: string;
  /** Intrinsic, of `src`: with them the browser reserves the image's box before it arrives. */
  width: number;
  height: number;
  /** Formats a browser may skip, best first, each with its `type`, tried before the `<img>`'s own. */
  sources: readonly { type: string; srcset: string }[];
}

/**
 * The width an image takes in a post: the page's column (46rem less its 1rem padding on each side, renderer/style.ts)
 * or the whole viewport less that padding on a narrower screen. A browser picks the narrowest file covering it at its
 * pixel density.
 */
export const POST_IMAGE_SIZES = '(max-width: 46rem) calc(100vw - 2rem), 44rem';

function srcset(image: StoredImage, format: ImageFormat): string {
  return image.widths.map((width) => `${imageUrl({ hash: image.hash, width, format })} ${width}w`).join(', ');
}

export function responsiveImage(image: StoredImage): ResponsiveImage {
  const fallback = image.formats[image.formats.length - 1] ?? 'webp';
  return {
    src: imageUrl({ hash: image.hash, width: image.width, format: fallback }),
    srcset: srcset(image, fallback),
    sizes: POST_IMAGE_SIZES,
    width: image.width,
    height: image.height,
    sources: image.formats.slice(0, -1).map((format) => ({ type: CONTENT_TYPES[format], srcset: srcset(image, format) })),
  };
}
