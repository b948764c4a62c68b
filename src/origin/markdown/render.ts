import hljs from 'highlight.js';
import MarkdownIt, { type MarkdownIt as Markdown } from 'markdown-it';
import anchor from 'markdown-it-anchor';
import taskLists from 'markdown-it-task-lists';

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

function createRenderer(): Markdown {
  const md = new MarkdownIt('default', { html: true, linkify: true, typographer: false, highlight });
  md.use(taskLists, { enabled: false });
  md.use(anchor, { slugify: headingSlug, tabIndex: false, uniqueSlugStartIndex: 2 });
  return md;
}

const renderer = createRenderer();

/** The HTML of a Markdown source, not yet sanitised. Heading ids are unique within the post (`setup`, `setup-2`). */
export function renderMarkdown(source: string): string {
  // A fresh env per call: markdown-it-anchor keeps the slugs it gave in it, so two posts never share a counter.
  return renderer.render(source, {});
}
