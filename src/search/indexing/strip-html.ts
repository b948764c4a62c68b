import { Parser } from 'htmlparser2';
import { scanHtml, type HtmlEvents } from './html-scan.js';

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
 * One streaming pass, nothing builds a DOM: the scan of html-scan.ts, or htmlparser2 for what the scan leaves to it.
 * Text without `<` or `&` skips both.
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
  return htmlTextByScan(html) ?? htmlTextByParser(html);
}

/** How stripping has htmlparser2 read HTML: the events the scan of html-scan.ts gives too. */
export const STRIP_PARSER_OPTIONS = { decodeEntities: false, lowerCaseTags: true, lowerCaseAttributeNames: true } as const;

/** htmlText read by htmlparser2 alone, the reference of the scan (see html-scan.ts) and its fallback. */
export function htmlTextByParser(html: string): string {
  const collector = new TextCollector();
  new Parser(collector, STRIP_PARSER_OPTIONS).end(html);
  return collector.text;
}

/** htmlText read by the scan alone; undefined for a fragment it leaves to htmlparser2. */
export function htmlTextByScan(html: string): string | undefined {
  const collector = new TextCollector();
  return scanHtml(html, collector) ? collector.text : undefined;
}

/** The text of one fragment, made from its parsing events (htmlparser2's or the scan's). */
class TextCollector implements HtmlEvents {
  text = '';
  #depth = 0;
  #droppedAt = -1;
  /**
   * Whitespace is collapsed at the end; a space that would follow another is left out here already, so that the
   * boundaries of blocks, each closed and opened with a line between, do not leave runs for the collapse to replace.
   */
  #spaced = true;

  onopentag(name: string, attributes: Record<string, string>): void {
    this.#depth++;
    if (this.#droppedAt !== -1) return;
    if (isDroppedElement(name, attributes)) this.#droppedAt = this.#depth;
    else if (BLOCK_TAGS.has(name)) this.#separate();
  }

  onclosetag(name: string): void {
    if (this.#droppedAt === this.#depth) this.#droppedAt = -1;
    else if (this.#droppedAt === -1 && BLOCK_TAGS.has(name)) this.#separate();
    this.#depth--;
  }

  ontext(chunk: string): void {
    if (this.#droppedAt !== -1) return;
    if (chunk === '\n') this.#separate();
    else {
      const decoded = decodeEntities(chunk);
      this.text += decoded;
      this.#spaced = decoded.charCodeAt(decoded.length - 1) === 0x20;
    }
  }

  #separate(): void {
    if (!this.#spaced) this.text += ' ';
    this.#spaced = true;
  }
}

/** Single spaces for whitespace runs; the pattern only matches what changes, so plain single spaces cost nothing. */
function collapseWhitespace(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}
