import { DomUtils, parseDocument } from 'htmlparser2';
import { escapeHtml } from '../../../html-escape.js';
import { sectionIds, type ProseSection } from '../content-build.js';
import { isDroppedElement } from '../strip-html.js';
import { matchesCompound, type CompoundSelector } from './selector.js';

type DomNode = ReturnType<typeof parseDocument>['children'][number];
type DomElement = Parameters<typeof DomUtils.getAttributeValue>[0];

/** What a page gives the build. */
export interface ExtractedPage {
  /** `<title>`, else `og:title`, else the first `<h1>`; whitespace collapsed. Empty when the page has none. */
  title: string;
  /** `<meta name="description">`, else `og:description`. */
  description: string;
  /** `<html lang>` (or `xml:lang`) as written, when present. */
  lang: string | undefined;
  /** The `href` of `<link rel="canonical">` as written, when present. */
  canonical: string | undefined;
  /** `<meta name="robots">` (or `name="sitestack"`) says `noindex` or `none`. */
  noindex: boolean;
  /** Whether the content is the selector's element or, for want of one, the page's body. */
  contentFrom: 'selector' | 'body';
  sections: ProseSection[];
}

/** Headings that start a section: the level of a page's parts and the level just below. */
const SECTION_HEADINGS = new Set(['h2', 'h3']);
/** A page's chrome, left out when no element matches the selector and the whole body is read. */
const CHROME_TAGS = new Set(['nav', 'header', 'footer']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo']);
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Tag names written back into section HTML; anything stranger is left out (its text stays). */
const PLAIN_TAG = /^[a-z][a-z0-9-]{0,40}$/;

const isElement = (node: DomNode): node is DomElement => DomUtils.isTag(node);

/** An element the index never reads: the content build's hidden and warning rules, and `data-search-ignore`. */
function ignored(element: DomElement): boolean {
  return element.attribs['data-search-ignore'] !== undefined || isDroppedElement(element.name, element.attribs);
}

function isChrome(element: DomElement): boolean {
  return CHROME_TAGS.has(element.name) || CHROME_ROLES.has((element.attribs.role ?? '').toLowerCase());
}

/**
 * Every element under `roots` in document order, without descending into those `skip` refuses. Iterative: a page of
 * a hundred thousand nested elements must not exhaust the stack.
 */
function* elementsUnder(roots: readonly DomNode[], skip: (element: DomElement) => boolean): Generator<DomElement> {
  const stack: DomNode[] = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as DomNode;
    if (!isElement(node) || skip(node)) continue;
    yield node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode);
  }
}

/** The visible text of an element, whitespace collapsed. */
function textOf(element: DomElement): string {
  const parts: string[] = [];
  const stack: DomNode[] = [...element.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as DomNode;
    if (DomUtils.isText(node)) parts.push(node.data);
    else if (isElement(node) && !ignored(node)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode);
  }
  return collapse(parts.join(''));
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The anchor a heading can be linked by: its id, else the first id or `<a name>` inside it. */
function headingAnchor(heading: DomElement): string | undefined {
  for (const element of elementsUnder([heading], () => false)) {
    const anchor = element.attribs.id ?? (element.name === 'a' ? element.attribs.name : undefined);
    if (anchor !== undefined && anchor.trim() !== '') return anchor.trim();
  }
  return undefined;
}

/**
 * Writes the content as plain HTML sections split at h2/h3 headings: tags without attributes, text escaped, ignored
 * elements left out. A heading nested inside other elements closes them in the section it ends and opens them again in
 * the next, so every section's HTML stands alone.
 */
class SectionWriter {
  readonly sections: ProseSection[] = [];
  readonly #sectionId = sectionIds();
  readonly #open: string[] = [];
  #current = { id: '', title: '', html: '', hasText: false };
  #headings = 0;

  start(heading: DomElement): void {
    for (let i = this.#open.length - 1; i >= 0; i--) this.#current.html += `</${this.#open[i]}>`;
    this.#flush();
    const title = textOf(heading);
    this.#current = { id: this.#sectionId(headingAnchor(heading), title, ++this.#headings), title, html: '', hasText: false };
    for (const name of this.#open) this.#current.html += `<${name}>`;
  }

  open(name: string): boolean {
    if (!PLAIN_TAG.test(name)) return false;
    this.#current.html += `<${name}>`;
    if (VOID_TAGS.has(name)) return false;
    this.#open.push(name);
    return true;
  }

  close(): void {
    this.#current.html += `</${this.#open.pop()}>`;
  }

  text(data: string): void {
    if (/\S/.test(data)) this.#current.hasText = true;
    this.#current.html += escapeHtml(data);
  }

  end(): ProseSection[] {
    this.#flush();
    return this.sections;
  }

  #flush(): void {
    const { id, title, html, hasText } = this.#current;
    if (hasText || title !== '') this.sections.push({ id, title, content: hasText ? html.trim() : '' });
  }
}

const CLOSE = Symbol('close');

function writeSections(root: readonly DomNode[], skip: (element: DomElement) => boolean): ProseSection[] {
  const writer = new SectionWriter();
  const stack: (DomNode | typeof CLOSE)[] = [...root].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as DomNode | typeof CLOSE;
    if (node === CLOSE) writer.close();
    else if (DomUtils.isText(node)) writer.text(node.data);
    else if (isElement(node) && !skip(node)) {
      if (SECTION_HEADINGS.has(node.name)) {
        writer.start(node);
        continue;
      }
      if (writer.open(node.name)) stack.push(CLOSE);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode);
    }
  }
  return writer.end();
}

function metaContent(metas: readonly DomElement[], attribute: 'name' | 'property', value: string): string | undefined {
  const meta = metas.find((element) => (element.attribs[attribute] ?? '').toLowerCase() === value);
  return meta?.attribs.content;
}

/**
 * Reads a page: its title, description, language, canonical URL and robots directive from the head, and its main
 * content — the first element matching the first alternative of `selector` that matches any, else the body without its
 * navigation, header and footer — as sections. Broken HTML is read as browsers would, near enough (htmlparser2).
 */
export function extractPage(html: string, selector: readonly CompoundSelector[]): ExtractedPage {
  const document = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const firsts = new Map<CompoundSelector, DomElement>();
  const metas: DomElement[] = [];
  let htmlElement: DomElement | undefined;
  let titleElement: DomElement | undefined;
  let h1: DomElement | undefined;
  let body: DomElement | undefined;
  let canonical: string | undefined;
  for (const element of elementsUnder(document.children, ignored)) {
    const { name, attribs } = element;
    if (name === 'html') htmlElement ??= element;
    else if (name === 'title') titleElement ??= element;
    else if (name === 'meta') metas.push(element);
    else if (name === 'h1') h1 ??= element;
    else if (name === 'body') body ??= element;
    else if (name === 'link' && canonical === undefined && (attribs.rel ?? '').toLowerCase().split(/\s+/).includes('canonical')) canonical = attribs.href?.trim();
    for (const alternative of selector) if (!firsts.has(alternative) && matchesCompound(alternative, name, attribs)) firsts.set(alternative, element);
  }
  const chosen = selector.map((alternative) => firsts.get(alternative)).find((element) => element !== undefined);
  const content = chosen?.children ?? body?.children ?? document.children;
  const skip = chosen !== undefined ? ignored : (element: DomElement) => ignored(element) || isChrome(element) || element.name === 'head';
  const robots = `${metaContent(metas, 'name', 'robots') ?? ''},${metaContent(metas, 'name', 'sitestack') ?? ''}`.toLowerCase();
  const title = (titleElement && textOf(titleElement)) || collapse(metaContent(metas, 'property', 'og:title') ?? '') || (h1 ? textOf(h1) : '');
  const lang = htmlElement?.attribs.lang ?? htmlElement?.attribs['xml:lang'];
  return {
    title,
    description: collapse(metaContent(metas, 'name', 'description') ?? metaContent(metas, 'property', 'og:description') ?? ''),
    lang: lang?.trim() || undefined,
    canonical: canonical || undefined,
    noindex: /(^|[\s,])(noindex|none)([\s,]|$)/.test(robots),
    contentFrom: chosen !== undefined ? 'selector' : 'body',
    sections: writeSections(content, skip),
  };
}
