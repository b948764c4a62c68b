import sanitizeHtml from 'sanitize-html';
import { imageOfUrl } from '../images/names.js';

/*
 * The one gate every post body passes before a reader gets it, Markdown and HTML alike: an allow-list of elements,
 * attributes, classes and URL schemes (sanitize-html, which parses with htmlparser2 as the rest of sitestack does).
 * Anything not listed is dropped, so a construct a browser would run (script, event handler, javascript: URL, SVG,
 * forms, frames, styles) cannot survive an editor's slip or a pasted snippet. Pure: no I/O, same input, same output.
 */

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

const ALLOWED_TAGS = [
  ...HEADINGS,
  'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'span', 'div', 'section', 'aside', 'figure', 'figcaption',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'details', 'summary',
  'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td',
  // picture and source for the site's own uploads only (ourImageSet below).
  'a', 'img', 'picture', 'source', 'strong', 'b', 'em', 'i', 's', 'del', 'ins', 'sub', 'sup', 'mark', 'small', 'kbd', 'samp', 'var',
  'abbr', 'cite', 'q', 'dfn', 'time',
  // Task lists only: made a disabled checkbox below, so no form control reaches a reader.
  'input',
];

/*
 * Elements dropped with their content: their text is code, styling or another document, never prose. Every other
 * element that is not allowed is dropped and its text kept (a pasted `<form>` leaves its words).
 */
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'textarea', 'option', 'select', 'noscript', 'iframe', 'frame', 'frameset', 'object', 'embed',
  'template', 'svg', 'math', 'xmp', 'noembed', 'noframes', 'plaintext', 'title', 'head', 'button', 'canvas', 'audio', 'video',
];

const CELL_ALIGN = { 'text-align': [/^(?:left|right|center)$/] };

/** Ids that match this keep: no whitespace, no leading underscore (the page's own `__SITESTACK_DATA__` cannot be forged). */
const ID_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.:-]{0,119}$/u;

/**
 * Ids the post page gives its own elements (src/renderer: the root, the main content, the comments and the comment form,
 * the search box). A body repeating one would take the page's place for `#anchors`, labels and `aria-controls`, so it is
 * renamed `section-<id>`.
 */
const PAGE_ID_PATTERN = /^(?:root|content|comments|comment-.*|search-.*|site-search-.*|m-.*)$/;

/**
 * `http(s):` URLs lead to another site (the site's own links are written as paths), read as a browser reads them:
 * without the whitespace and control characters it removes. Other schemes and `//` URLs are dropped anyway.
 */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const toOtherSite = (href: string): boolean => /^https?:/i.test(href.replace(/[\u0000-\u0020]/g, ''));

function safeId(id: string | undefined): string | undefined {
  if (id === undefined || !ID_PATTERN.test(id)) return undefined;
  return PAGE_ID_PATTERN.test(id) ? `section-${id}` : id;
}

/** Moves a checked id over, or drops it; other attributes are as sanitize-html left them. */
function withSafeId(attribs: Record<string, string>): Record<string, string> {
  const { id, ...rest } = attribs;
  const kept = safeId(id);
  return kept === undefined ? rest : { ...rest, id: kept };
}

/** A `srcset` (or `src`) of the site's uploads alone: every candidate's URL one of `/_render/image/`. */
function ourImageSet(value: string | undefined): boolean {
  if (value === undefined || value.trim() === '') return false;
  return value.split(',').every((candidate) => /^\s*\S+(?:\s+\d{1,5}w)?\s*$/.test(candidate) && imageOfUrl(candidate.trim().split(/\s+/)[0]!) !== undefined);
}

/** The formats a `<source>` may offer beside an image's own. */
const SOURCE_TYPES = ['image/webp', 'image/avif'];

/** A `sizes` as the renderer writes it: media conditions and lengths (`calc()` included), no quote or `<`. */
const SIZES = /^[\sa-z0-9().,:%+*/-]*$/i;

/**
 * An image's attributes a reader gets: `srcset` and `sizes` only on the site's uploads (whose files the renderer
 * listed itself), `width` and `height` only as whole numbers, `loading` and `decoding` only with a value they know.
 */
function imageAttributes(attribs: Record<string, string>): Record<string, string> {
  const ours = ourImageSet(attribs.src) && ourImageSet(attribs.srcset);
  const keep: Record<string, (value: string) => boolean> = {
    srcset: () => ours,
    sizes: (value) => ours && SIZES.test(value),
    width: (value) => /^\d{1,5}$/.test(value),
    height: (value) => /^\d{1,5}$/.test(value),
    loading: (value) => value === 'lazy' || value === 'eager',
    decoding: (value) => ['async', 'sync', 'auto'].includes(value),
  };
  return Object.fromEntries(Object.entries(attribs).filter(([name, value]) => keep[name]?.(value) ?? true));
}

const ANY_TAG_ATTRIBUTES = ['id', 'title', 'lang', 'dir'];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  // sanitize-html's own list, and source, which is void too.
  selfClosing: ['img', 'br', 'hr', 'area', 'base', 'basefont', 'input', 'link', 'meta', 'source'],
  nonTextTags: DROPPED_WITH_CONTENT,
  disallowedTagsMode: 'discard',
  allowedAttributes: {
    '*': ANY_TAG_ATTRIBUTES,
    a: ['href', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'srcset', 'sizes', 'loading', 'decoding'],
    source: ['srcset', 'sizes', 'type'],
    ol: ['start', 'reversed', 'type'],
    li: ['value', 'class'],
    ul: ['class'],
    th: ['colspan', 'rowspan', 'scope', 'style'],
    td: ['colspan', 'rowspan', 'style'],
    code: ['class'],
    pre: ['class'],
    span: ['class'],
    div: ['class'],
    aside: ['class'],
    time: ['datetime'],
    abbr: ['title'],
    q: ['cite'],
    blockquote: ['cite'],
    input: ['type', 'checked', 'disabled', 'class'],
  },
  allowedClasses: {
    code: ['language-*', 'hljs'],
    pre: ['language-*'],
    span: ['hljs-*', 'language-*'],
    div: ['notecard', 'note', 'warning', 'callout'],
    aside: ['notecard', 'note', 'warning', 'callout'],
    ul: ['contains-task-list'],
    li: ['task-list-item'],
    input: ['task-list-item-checkbox'],
  },
  // Inline style only where a table needs it (Markdown's column alignment), and only alignment: nothing that can move
  // or size an element out of its box.
  allowedStyles: { th: CELL_ALIGN, td: CELL_ALIGN },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  allowedIframeHostnames: [],
  allowVulnerableTags: false,
  parseStyleAttributes: true,
  transformTags: {
    a: (tagName, attribs) => {
      const next = withSafeId(attribs);
      const { rel: _rel, ...rest } = next;
      const href = rest.href;
      return { tagName, attribs: href !== undefined && toOtherSite(href) ? { ...rest, rel: 'noopener noreferrer' } : rest };
    },
    input: (tagName, attribs) => attribs.type !== 'checkbox' ? { tagName, attribs: {} } : ({
      tagName,
      attribs: {
        type: 'checkbox',
        disabled: '',
        ...(attribs.checked === undefined ? {} : { checked: '' }),
        ...(attribs.class === undefined ? {} : { class: attribs.class }),
      },
    }),
    img: (tagName, attribs) => ({ tagName, attribs: imageAttributes(withSafeId(attribs)) }),
    '*': (tagName, attribs) => ({ tagName, attribs: withSafeId(attribs) }),
  },
  // Every input but a task list's checkbox (its type was left out above) is a form control: dropped. A source is kept
  // only to offer the site's own files in another format.
  exclusiveFilter: (frame) =>
    (frame.tag === 'input' && frame.attribs.type !== 'checkbox') || (frame.tag === 'source' && (!ourImageSet(frame.attribs.srcset) || !SOURCE_TYPES.includes(frame.attribs.type ?? ''))),
};

/** The HTML a reader may be given of `html`: every executable or escaping construct removed, the rest kept. */
export function sanitisePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
