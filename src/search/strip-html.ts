import { Parser } from 'htmlparser2';

/** Elements whose whole content is never indexed. */
const DROPPED_TAGS = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'svg', 'math']);

/** Elements that separate words: text on either side of them never runs together. */
const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'img',
  'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
]);

const DISPLAY_NONE = /display\s*:\s*none/i;

function classes(attributes: Record<string, string>): string[] {
  const value = attributes.class;
  return value === undefined ? [] : decodeEntities(value).toLowerCase().split(/\s+/);
}

/**
 * HTML entities of a text or attribute value decoded, by htmlparser2 itself. The stripping parser leaves them
 * encoded: its tokenizer then skips from tag to tag instead of stepping through every character of the text, and
 * only the few values holding an `&` are decoded here.
 */
function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  decoded = '';
  entityDecoder.reset();
  // Text of a title or textarea may hold a `<` that is not a tag; escaped, it stays text when decoded.
  entityDecoder.end(raw.replaceAll('<', '&lt;'));
  return decoded;
}

let decoded = '';
/** One parser reused for every value decoded (stripping is synchronous, so one value at a time). */
const entityDecoder = new Parser({ ontext: (text) => (decoded += text) }, { decodeEntities: true });

/**
 * Whether an element and everything inside it stays out of the index: scripts, styles and templates, hidden blocks
 * (`hidden` attribute, class `hidden`, inline `display: none`) and warning notes (`.notecard.warning`, `div.warning`).
 */
export function isDroppedElement(name: string, attributes: Record<string, string>): boolean {
  if (DROPPED_TAGS.has(name)) return true;
  if (attributes.hidden !== undefined) return true;
  if (attributes.style !== undefined && DISPLAY_NONE.test(decodeEntities(attributes.style))) return true;
  const classList = classes(attributes);
  if (classList.includes('hidden')) return true;
  if (classList.includes('warning') && (name === 'div' || classList.includes('notecard'))) return true;
  return false;
}

/**
 * The text of an HTML fragment as a reader sees it: entities decoded, hidden blocks, warning notes, scripts and styles
 * left out, block elements separating words, whitespace collapsed. Code, lists and tables keep their text.
 * One streaming pass with htmlparser2; nothing builds a DOM. Text without `<` or `&` skips the parser.
 */
export function stripHtml(html: string): string {
  return collapseWhitespace(htmlText(html));
}

/**
 * The text of several HTML fragments as stripHtml gives each, non-empty ones joined by a space: one collapse of the
 * whole, which gives the same, instead of one for each fragment.
 */
export function stripHtmlParts(fragments: readonly string[]): string {
  return collapseWhitespace(fragments.map(htmlText).join(' '));
}

/** The text of an HTML fragment as stripHtml reads it, its whitespace not yet collapsed. */
function htmlText(html: string): string {
  if (!html.includes('<') && !html.includes('&')) return html;
  let text = '';
  let depth = 0;
  let droppedAt = -1;
  // Whitespace is collapsed at the end; a space that would follow another is left out here already, so that the
  // boundaries of blocks, each closed and opened with a line between, do not leave runs for the collapse to replace.
  let spaced = true;
  const separate = () => {
    if (!spaced) text += ' ';
    spaced = true;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        depth++;
        if (droppedAt !== -1) return;
        if (isDroppedElement(name, attributes)) droppedAt = depth;
        else if (BLOCK_TAGS.has(name)) separate();
      },
      onclosetag(name) {
        if (droppedAt === depth) droppedAt = -1;
        else if (droppedAt === -1 && BLOCK_TAGS.has(name)) separate();
        depth--;
      },
      ontext(chunk) {
        if (droppedAt !== -1) return;
        if (chunk === '\n') separate();
        else {
          const decoded = decodeEntities(chunk);
          text += decoded;
          spaced = decoded.charCodeAt(decoded.length - 1) === 0x20;
        }
      },
    },
    { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return text;
}

/** Single spaces for whitespace runs; the pattern only matches what changes, so plain single spaces cost nothing. */
function collapseWhitespace(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}
