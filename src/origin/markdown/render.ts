import hljs from 'highlight.js';
import MarkdownIt, { type MarkdownIt as Markdown, type Token } from 'markdown-it';
import anchor from 'markdown-it-anchor';
import taskLists from 'markdown-it-task-lists';
import type { ResponsiveImage } from '../images/responsive.js';

/*
 * Markdown as GitHub writes it: CommonMark with tables, strikethrough, task lists, fenced code and bare links made
 * links. Raw HTML is let through here because editors paste it; the sanitiser after this step decides what of it a
 * reader gets. Pure: no I/O.
 */

/**
 * A heading's id: its words in any script, lower-cased, joined by hyphens (`Café au lait` → `café-au-lait`,
 * `缓存策略` → `缓存策略`), so a section's address reads as its title; `section` for a heading of punctuation alone.
 */
export function headingSlug(text: string): string {
  const slug = text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return slug === '' ? 'section' : slug;
}

/** Longer code blocks are shown plain: a grammar's cost grows with the block, and a save must stay quick. */
export const HIGHLIGHT_MAX_LENGTH = 100_000;

/**
 * Classes only (`hljs-keyword`…), styled by the site's stylesheet. A language the fence names and highlight.js knows
 * is highlighted; any other block is escaped as plain code (guessing a language costs time on every save and guesses
 * wrong on short snippets).
 */
function highlight(code: string, language: string): string {
  if (language === '' || code.length > HIGHLIGHT_MAX_LENGTH || hljs.getLanguage(language) === undefined) return '';
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}

/** The stored image an image's `src` names, when it is one of the site's uploads (`/_render/image/…`). */
export type ImageResolver = (src: string) => ResponsiveImage | undefined;

interface RenderEnv {
  [key: string]: unknown;
  images?: ImageResolver | undefined;
}

/**
 * An uploaded image as a `<picture>`: its WebP files offered first, its own format as the `<img>` every browser shows,
 * each at every width written (`srcset`, chosen by `sizes`), the widest's `width` and `height` so the page keeps its
 * place before the file arrives, loaded when it nears the screen. The alt text is the editor's.
 */
function responsiveImageHtml(image: ResponsiveImage, alt: string, title: string | null, escape: (text: string) => string): string {
  const attribute = (name: string, value: string | number) => ` ${name}="${escape(String(value))}"`;
  const sources = image.sources.map((source) => `<source${attribute('type', source.type)}${attribute('srcset', source.srcset)}${attribute('sizes', image.sizes)} />`);
  const img =
    `<img${attribute('src', image.src)}${attribute('srcset', image.srcset)}${attribute('sizes', image.sizes)}${attribute('width', image.width)}` +
    `${attribute('height', image.height)}${attribute('alt', alt)}${title === null ? '' : attribute('title', title)} loading="lazy" decoding="async" />`;
  return sources.length === 0 ? img : `<picture>${sources.join('')}${img}</picture>`;
}

const attributeText = (value: string | number | null): string | null => (value === null ? null : String(value));

function createRenderer(): Markdown {
  const md = new MarkdownIt('default', { html: true, linkify: true, typographer: false, highlight });
  md.use(taskLists, { enabled: false });
  md.use(anchor, { slugify: headingSlug, tabIndex: false, uniqueSlugStartIndex: 2 });
  const plainImage = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, index, options, env, self) => {
    const token = tokens[index]!;
    const image = (env as RenderEnv | undefined)?.images?.(String(token.attrGet('src') ?? ''));
    if (image === undefined) return plainImage(tokens, index, options, env, self);
    return responsiveImageHtml(image, self.renderInlineAsText(token.children ?? [], options, env), attributeText(token.attrGet('title')), md.utils.escapeHtml);
  };
  return md;
}

const renderer = createRenderer();

/**
 * The HTML of a Markdown source, not yet sanitised. Heading ids are unique within the post (`setup`, `setup-2`). An
 * image `images` knows is rendered responsive; any other stays a plain `<img>`.
 */
export function renderMarkdown(source: string, images?: ImageResolver): string {
  // A fresh env per call: markdown-it-anchor keeps the slugs it gave in it, so two posts never share a counter.
  return renderer.render(source, { images } satisfies RenderEnv);
}

/**
 * The `src` of every Markdown image in `source` whose alt text is empty or blank, in order (repeats kept once): the desk
 * flags them, since a reader who cannot see the image gets nothing of it. Pure; raw HTML `<img>` is not looked at.
 */
export function imagesWithoutAlt(source: string): string[] {
  const found = new Set<string>();
  const visit = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === 'image' && token.content.trim() === '') found.add(String(token.attrGet('src') ?? ''));
      if (token.children !== null) visit(token.children);
    }
  };
  visit(renderer.parse(source, {}));
  return [...found];
}
