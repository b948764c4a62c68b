/**
 * The main-content selector of `content-build --from-site`: a comma-separated list of compound selectors, each a tag
 * name and/or `#id`, `.class` and `[attribute]` / `[attribute=value]` parts (`main, article`, `div#content`,
 * `[role=main]`). Combinators are not taken: the first element of the page matching the first alternative that
 * matches anything is the content, which is what the option is for. Pure.
 */

/** One compound selector: every part must hold of the element. */
export interface CompoundSelector {
  tag?: string;
  id?: string;
  classes: string[];
  attributes: { name: string; value?: string }[];
}

/** A parsed selector list, or why the text is not one. */
export type ParsedSelector = { ok: true; alternatives: CompoundSelector[] } | { ok: false; problem: string };

const NAME = '[A-Za-z_][-A-Za-z0-9_]*';
const PART = new RegExp(`^(?:#(${NAME})|\\.(${NAME})|\\[\\s*(${NAME})\\s*(?:=\\s*(?:"([^"]*)"|'([^']*)'|(${NAME}))\\s*)?\\])`);
const TAG = new RegExp(`^(${NAME}|\\*)`);
const MAX_SELECTOR_LENGTH = 500;

function parseCompound(text: string): CompoundSelector | string {
  const selector: CompoundSelector = { classes: [], attributes: [] };
  let rest = text;
  const tag = TAG.exec(rest);
  if (tag !== null) {
    if (tag[1] !== '*') selector.tag = (tag[1] as string).toLowerCase();
    rest = rest.slice(tag[0].length);
  }
  while (rest !== '') {
    const part = PART.exec(rest);
    if (part === null) return `cannot read '${rest}' (tag, #id, .class and [attribute=value] only, no combinators)`;
    const [whole, id, className, attribute, doubleQuoted, singleQuoted, bare] = part;
    if (id !== undefined) selector.id = id;
    else if (className !== undefined) selector.classes.push(className);
    else if (attribute !== undefined) {
      const value = doubleQuoted ?? singleQuoted ?? bare;
      selector.attributes.push(value === undefined ? { name: attribute.toLowerCase() } : { name: attribute.toLowerCase(), value });
    }
    rest = rest.slice(whole.length);
  }
  return selector;
}

/** Reads a selector list; an empty, overlong or unreadable one is refused with the reason. */
export function parseSelector(text: string): ParsedSelector {
  if (text.length > MAX_SELECTOR_LENGTH) return { ok: false, problem: `is longer than ${MAX_SELECTOR_LENGTH} characters` };
  const alternatives: CompoundSelector[] = [];
  for (const piece of text.split(',')) {
    const trimmed = piece.trim();
    if (trimmed === '') return { ok: false, problem: 'holds an empty selector' };
    const compound = parseCompound(trimmed);
    if (typeof compound === 'string') return { ok: false, problem: compound };
    alternatives.push(compound);
  }
  return { ok: true, alternatives };
}

/** Whether an element (its lower-case name and attributes) matches one compound selector. */
export function matchesCompound(selector: CompoundSelector, name: string, attributes: Readonly<Record<string, string>>): boolean {
  if (selector.tag !== undefined && selector.tag !== name) return false;
  if (selector.id !== undefined && attributes.id !== selector.id) return false;
  if (selector.classes.length > 0) {
    const classList = (attributes.class ?? '').split(/\s+/);
    if (!selector.classes.every((className) => classList.includes(className))) return false;
  }
  return selector.attributes.every(({ name: attribute, value }) =>
    value === undefined ? attributes[attribute] !== undefined : attributes[attribute] === value,
  );
}
