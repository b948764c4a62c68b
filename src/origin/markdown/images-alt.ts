import MarkdownIt, { type Token } from 'markdown-it';

/*
 * Images an editor left without alt text, found by the Markdown parser itself (an image inside a code block or an
 * escaped `\![` is no image). Pure: no I/O.
 */

/** CommonMark alone: tables, task lists and anchors change nothing about which inline tokens are images. */
const parser = new MarkdownIt('commonmark');

function* images(tokens: readonly Token[]): Generator<Token> {
  for (const token of tokens) {
    if (token.type === 'image') yield token;
    if (token.children !== null) yield* images(token.children);
  }
}

/** The address (`src`) of every image of a Markdown source whose alt text is empty or blank, in order. */
export function imagesWithoutAlt(source: string): string[] {
  const missing: string[] = [];
  for (const image of images(parser.parse(source, {}))) {
    if (image.content.trim() === '') missing.push(String(image.attrGet('src') ?? ''));
  }
  return missing;
}
