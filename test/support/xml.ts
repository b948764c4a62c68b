import assert from 'node:assert/strict';
import { DomUtils, parseDocument, Parser } from 'htmlparser2';

type Document = ReturnType<typeof parseDocument>;
type Element = ReturnType<typeof DomUtils.getElementsByTagName>[number];

/**
 * Parses `text` as XML after checking it is well formed in the ways a generated feed can fail: one root element,
 * every element closed by its own end tag (htmlparser2 would quietly close it), no `&` outside an entity or character
 * reference, and no text before the root but the XML declaration. Enough to catch unescaped content; not a validator.
 */
export function parseXml(text: string): Document {
  const open: string[] = [];
  let roots = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (open.length === 0) roots++;
        open.push(name);
      },
      onclosetag(name, isImplied) {
        const expected = open.pop();
        assert.equal(isImplied && name !== expected ? `implied </${name}>` : name, expected, `</${name}> closes <${expected ?? 'nothing'}>`);
      },
      ontext(data) {
        if (open.length === 0) assert.equal(data.trim(), '', `text outside the root element: ${data.slice(0, 40)}`);
      },
    },
    { xmlMode: true },
  );
  parser.write(text);
  parser.end();
  assert.equal(open.length, 0, `unclosed elements: ${open.join(', ')}`);
  assert.equal(roots, 1, 'one root element');
  const stray = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.exec(text);
  assert.equal(stray, null, `a bare & at ${stray?.index ?? 0}: ${text.slice(stray?.index ?? 0, (stray?.index ?? 0) + 30)}`);
  return parseDocument(text, { xmlMode: true, decodeEntities: true });
}

/** Every element named `name` under `node`. */
export function elements(node: Document | Element, name: string): Element[] {
  return DomUtils.getElementsByTagName(name, node, true);
}

/** The decoded text of the first `name` element under `node`. */
export function textOf(node: Document | Element, name: string): string {
  const [first] = elements(node, name);
  assert.ok(first !== undefined, `no <${name}>`);
  return DomUtils.textContent(first);
}
