import { renderMarkdown, type ImageResolver } from './render.js';
import { sanitisePostHtml } from './sanitise.js';

export { headingSlug, imagesWithoutAlt, renderMarkdown, type ImageResolver } from './render.js';
export { sanitisePostHtml } from './sanitise.js';

/** How a post's source is read: Markdown, or HTML as written (every post from before formats). */
export const POST_FORMATS = ['markdown', 'html'] as const;
export type PostFormat = (typeof POST_FORMATS)[number];

/**
 * What the current rendering makes: stored beside each post's HTML, so a post rendered by an older one (an older
 * sanitiser, other Markdown options) is rendered again from its source when the origin opens its database. Raise it
 * whenever the output of `renderPostBody` changes for some source.
 */
export const RENDERING_VERSION = 2;

/**
 * The HTML readers get of a post's source: Markdown rendered, then, for either format, sanitised. Pure but for
 * `images`, which looks up the site's uploads a Markdown image names (imageLookup); without it every image is plain.
 */
export function renderPostBody(format: PostFormat, source: string, images?: ImageResolver): string {
  return sanitisePostHtml(format === 'markdown' ? renderMarkdown(source, images) : source);
}
