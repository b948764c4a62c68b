/**
 * A faster reading of the HTML the indexer strips, for the pages most builds hold: the same events, in the same
 * order and with the same values, as htmlparser2's `Parser` gives (lower-cased names, entities left encoded, HTML
 * mode), but found by jumping from `<` to `>` instead of stepping a state machine through every character. It reads
 * a subset of HTML only: tags whose names start with a letter, their attributes, text, and the raw text of scripts and
 * styles. Anything else (comments, declarations, a `<` that opens no tag, `title`, `textarea` and `xmp`, `svg` and
 * `math`, a tag cut off by the end) makes it stop and answer false, and the caller reads the fragment again with
 * htmlparser2, the reference (see strip-html.ts). Property tests hold the two to the same events. Pure: no I/O.
 */

/** The events of htmlparser2's Parser that stripping reads. */
export interface HtmlEvents {
  onopentag(name: string, attributes: Record<string, string>): void;
  onclosetag(name: string): void;
  ontext(chunk: string): void;
}

/**
 * Tags whose text htmlparser2 reads raw and looks into for the closing tag in ways of its own (`title` and `textarea`
 * one character at a time), or in whose content self-closing tags close: this scan leaves them to it.
 */
const NOT_SCANNED = new Set(['title', 'textarea', 'xmp', 'svg', 'math']);

/** Tags whose text is raw up to their closing tag, which the scan finds as htmlparser2's tokenizer does (see rawTextEnd). */
const RAW_TEXT_ENDS = new Map([
  ['script', '</script'],
  ['style', '</style'],
]);

/** htmlparser2's void elements (Parser.js `voidElements`): closed as soon as opened, a closing tag of one ignored. */
const VOID_ELEMENTS = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen',
  'link', 'meta', 'param', 'source', 'track', 'wbr',
]);

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const DD_DT = new Set(['dd', 'dt']);
const RT_RP = new Set(['rt', 'rp']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
/**
 * htmlparser2's implied end tags (Parser.js `openImpliesClose`): opening the key closes the open elements on top of
 * the stack while they are in its set.
 */
const OPEN_IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DD_DT],
  ['dt', DD_DT],
  ['rt', RT_RP],
  ['rp', RT_RP],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((name) => [name, FORM] as const),
  ...[
    'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl',
    'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section',
    'table', 'ul',
  ].map((name) => [name, P] as const),
]);

const LT = '<'.charCodeAt(0);
const GT = '>'.charCodeAt(0);
const SLASH = '/'.charCodeAt(0);
const EQUALS = '='.charCodeAt(0);
const DOUBLE_QUOTE = '"'.charCodeAt(0);
const SINGLE_QUOTE = "'".charCodeAt(0);

/** The whitespace of HTML's tokenizer: space, tab, line feed, form feed, carriage return. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0c || code === 0x0d;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** Where a tag or attribute name ends: whitespace, `/` or `>` (and `=` for an attribute). */
function endsName(code: number): boolean {
  return code === SLASH || code === GT || isSpace(code);
}

/** A name lower-cased, as htmlparser2 gives tag and attribute names. */
function lowerName(name: string): string {
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 0x41 && code <= 0x5a) return name.toLowerCase();
    if (code > 0x7f) return name.toLowerCase();
  }
  return name;
}

/**
 * Reads `html`, giving its events to `events`; false when it met what it leaves to htmlparser2 (see above), in which
 * case the events given so far are to be dropped.
 */
export function scanHtml(html: string, events: HtmlEvents): boolean {
  /** The open elements, innermost last. */
  const stack: string[] = [];
  const length = html.length;
  let at = 0;
  while (at < length) {
    const lt = html.indexOf('<', at);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > at) events.ontext(html.slice(at, textEnd));
    if (lt === -1) break;
    const next = html.charCodeAt(lt + 1);
    if (isAsciiLetter(next)) {
      const end = openTag(html, lt + 1, stack, events);
      if (end === -1) return false;
      at = end;
    } else if (next === SLASH && isAsciiLetter(html.charCodeAt(lt + 2))) {
      const end = closeTag(html, lt + 2, stack, events);
      if (end === -1) return false;
      at = end;
    } else {
      return false;
    }
  }
  for (let i = stack.length - 1; i >= 0; i--) events.onclosetag(stack[i] as string);
  return true;
}

/** Reads an opening tag whose name starts at `start`; the index after its `>`, or -1 to leave it to htmlparser2. */
function openTag(html: string, start: number, stack: string[], events: HtmlEvents): number {
  const length = html.length;
  let at = start + 1;
  while (at < length && !endsName(html.charCodeAt(at))) at++;
  const name = lowerName(html.slice(start, at));
  if (NOT_SCANNED.has(name)) return -1;
  const attributes: Record<string, string> = {};
  // Whether the tag ends `/>`, its slash read where an attribute could start: htmlparser2 then reads no raw text.
  let selfClosing = false;
  for (;;) {
    while (at < length) {
      const code = html.charCodeAt(at);
      if (code === SLASH) selfClosing = true;
      else if (!isSpace(code)) break;
      at++;
    }
    if (at >= length) return -1;
    if (html.charCodeAt(at) === GT) break;
    selfClosing = false;
    const nameStart = at;
    // An attribute name runs to `=`, whitespace, `/` or `>`; its first character may be `=`.
    at++;
    while (at < length && !endsName(html.charCodeAt(at)) && html.charCodeAt(at) !== EQUALS) at++;
    const attribute = lowerName(html.slice(nameStart, at));
    while (at < length && isSpace(html.charCodeAt(at))) at++;
    let value = '';
    if (html.charCodeAt(at) === EQUALS) {
      at++;
      while (at < length && isSpace(html.charCodeAt(at))) at++;
      if (at >= length) return -1;
      const quote = html.charCodeAt(at);
      if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
        const close = html.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", at + 1);
        if (close === -1) return -1;
        value = html.slice(at + 1, close);
        at = close + 1;
      } else {
        const valueStart = at;
        while (at < length && !isSpace(html.charCodeAt(at)) && html.charCodeAt(at) !== GT) at++;
        value = html.slice(valueStart, at);
      }
    }
    if (!Object.prototype.hasOwnProperty.call(attributes, attribute)) attributes[attribute] = value;
  }
  const implied = OPEN_IMPLIES_CLOSE.get(name);
  if (implied !== undefined) {
    while (stack.length > 0 && implied.has(stack[stack.length - 1] as string)) events.onclosetag(stack.pop() as string);
  }
  const isVoid = VOID_ELEMENTS.has(name);
  if (!isVoid) stack.push(name);
  events.onopentag(name, attributes);
  if (isVoid) events.onclosetag(name);
  const rawEnd = RAW_TEXT_ENDS.get(name);
  return rawEnd === undefined ? at + 1 : rawText(html, at + 1, rawEnd, selfClosing, stack, events);
}

/**
 * Reads the raw text of a `script` or `style` opened before `start` and its closing tag; the index after that tag's
 * `>`, or -1 to leave the fragment to htmlparser2 (no closing tag, or an opening tag ending `/>`).
 */
function rawText(html: string, start: number, sequence: string, selfClosing: boolean, stack: string[], events: HtmlEvents): number {
  if (selfClosing) return -1;
  const textEnd = rawTextEnd(html, start, sequence);
  if (textEnd === -1) return -1;
  const nameEnd = textEnd + sequence.length;
  const gt = html.indexOf('>', nameEnd);
  if (gt === -1) return -1;
  if (textEnd > start) events.ontext(html.slice(start, textEnd));
  closeElement(lowerName(html.slice(textEnd + 2, nameEnd)), stack, events);
  return gt + 1;
}

/**
 * Where the raw text from `start` ends: the first `sequence` (`</script`, `</style`) followed by `>` or whitespace,
 * matched as htmlparser2's tokenizer matches it (Tokenizer.js `stateInSpecialTag`): a character matches a letter of
 * the sequence when it does with its 0x20 bit set, and after a mismatch the search goes on from the next `<`.
 * -1 when there is none.
 */
function rawTextEnd(html: string, start: number, sequence: string): number {
  const length = html.length;
  let matched = 0;
  for (let at = start; at < length; at++) {
    const code = html.charCodeAt(at);
    if (matched === sequence.length) {
      if (code === GT || isSpace(code)) return at - sequence.length;
      matched = 0;
    }
    if ((code | 0x20) === sequence.charCodeAt(matched)) matched++;
    else if (matched === 0) {
      const lt = html.indexOf('<', at + 1);
      if (lt === -1) return -1;
      at = lt;
      matched = 1;
    } else matched = Number(code === LT);
  }
  return -1;
}

/** Reads a closing tag whose name starts at `start`; the index after its `>`, or -1 to leave it to htmlparser2. */
function closeTag(html: string, start: number, stack: string[], events: HtmlEvents): number {
  const length = html.length;
  let at = start + 1;
  while (at < length && html.charCodeAt(at) !== GT && !isSpace(html.charCodeAt(at))) at++;
  const name = lowerName(html.slice(start, at));
  // Whatever follows the name up to `>` is skipped.
  const gt = html.indexOf('>', at);
  if (gt === -1 || NOT_SCANNED.has(name)) return -1;
  if (VOID_ELEMENTS.has(name)) {
    if (name === 'br') {
      events.onopentag('br', {});
      events.onclosetag('br');
    }
    return gt + 1;
  }
  closeElement(name, stack, events);
  return gt + 1;
}

/** Closes the innermost open element `name` and every element inside it, as htmlparser2's Parser does. */
function closeElement(name: string, stack: string[], events: HtmlEvents): void {
  const position = stack.lastIndexOf(name);
  if (position !== -1) {
    while (stack.length > position) events.onclosetag(stack.pop() as string);
  } else if (name === 'p') {
    // A closing `</p>` with none open is an empty paragraph.
    events.onopentag('p', {});
    events.onclosetag('p');
  }
}
