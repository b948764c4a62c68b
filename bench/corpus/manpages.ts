import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseManPage } from './groff.js';
import type { SyntheticDocument } from './synthetic.js';

/**
 * A corpus of real text in many languages: the translated manual pages Debian ships under /usr/share/man/<locale>/,
 * as `index.json` documents (title the NAME line, summary its description, one prose section per section). Nothing
 * in it is written for the bench: whichever pages the packages below install are the corpus.
 */

/** The locales of the corpus, their folders under the man root, and the Debian package that fills each. */
export const MANPAGE_LOCALES: readonly { locale: string; folder: string; package: string }[] = (
  [
    ['zh-CN', 'zh_CN', 'manpages-zh'],
    ['zh-TW', 'zh_TW', 'manpages-zh'],
    ['ja', 'ja', 'manpages-ja'],
    // Debian has no Korean manual package: these pages come with base packages (man-db, xz-utils, psmisc, passwd, login).
    ['ko', 'ko', 'man-db'],
    ['de', 'de', 'manpages-de'],
    ['fr', 'fr', 'manpages-fr'],
    ['es', 'es', 'manpages-es'],
    ['pt-BR', 'pt_BR', 'manpages-pt-br'],
    ['ru', 'ru', 'manpages-ru'],
  ] as const
).map(([locale, folder, name]) => ({ locale, folder, package: name }));

/** Fewer pages than this in a locale's folder means its package is not installed (base packages ship a few). */
export const MIN_PAGES_PER_LOCALE = 100;

/** `apt-get install` line that fills the corpus. */
export const MANPAGE_PACKAGES = [...new Set(MANPAGE_LOCALES.map((entry) => entry.package).filter((name) => name !== 'man-db'))];

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page files of a locale's folder, `man1/ls.1.gz`, sorted; links to other pages left out. */
export function manPageFiles(root: string, folder: string): string[] {
  const base = join(root, folder);
  if (!existsSync(base)) return [];
  const files: string[] = [];
  for (const directory of readdirSync(base).filter((name) => /^man\w+$/.test(name)).sort()) {
    for (const file of readdirSync(join(base, directory)).sort()) {
      if (lstatSync(join(base, directory, file)).isFile()) files.push(`${directory}/${file}`);
    }
  }
  return files;
}

/** The document of one page file (`man1/ls.1.gz` of `ja`); undefined for an alias or a page without a NAME line. */
export function manPageDocument(locale: string, file: string, raw: Buffer): SyntheticDocument | undefined {
  const source = new TextDecoder('utf-8').decode(file.endsWith('.gz') ? gunzipSync(raw) : raw);
  const page = parseManPage(source);
  if (page.alias || page.name === '') return undefined;
  const stem = file.replace(/\.gz$/, '');
  const slug = `docs/man/${stem.replace(/[^\p{L}\p{N}/.+_-]+/gu, '_')}`;
  const dash = /\s[-–—]\s/.exec(page.name);
  const summary = dash === null ? page.name : page.name.slice(dash.index + dash[0].length);
  const body = page.sections.map((section, index) => ({
    type: 'prose' as const,
    value: { id: `section_${index}`, title: section.heading, content: section.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n') },
  }));
  return {
    folder: `${locale.toLowerCase()}/${slug.toLowerCase()}`,
    json: { doc: { title: page.name, summary, mdn_url: `/${locale}/${slug}`, locale, popularity: 0, body } },
  };
}

export interface ManPageCorpus {
  /** The locales with pages enough, in MANPAGE_LOCALES order. */
  locales: string[];
  /** Locales left out, with why. */
  missing: { locale: string; package: string; pages: number }[];
  documents: SyntheticDocument[];
}

/** Every page of every locale of MANPAGE_LOCALES found under `root` (a locale with too few pages is left out). */
export function manPageCorpus(root: string, minPages: number = MIN_PAGES_PER_LOCALE): ManPageCorpus {
  const corpus: ManPageCorpus = { locales: [], missing: [], documents: [] };
  for (const { locale, folder, package: name } of MANPAGE_LOCALES) {
    const files = manPageFiles(root, folder);
    const documents = files.flatMap((file) => manPageDocument(locale, file, readFileSync(join(root, folder, file))) ?? []);
    if (documents.length < minPages && name !== 'man-db') {
      corpus.missing.push({ locale, package: name, pages: documents.length });
      continue;
    }
    corpus.locales.push(locale);
    corpus.documents.push(...documents);
  }
  return corpus;
}
