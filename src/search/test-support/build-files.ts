import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PageSpec {
  /** Folder path relative to the root, e.g. `en-us/docs/a`. */
  folder: string;
  title: string;
  body?: string;
  url?: string;
  locale?: string;
  popularity?: number;
}

/** Writes `index.json` files in the content build's shape under `root`. */
export function writePages(root: string, pages: readonly PageSpec[]): void {
  for (const page of pages) {
    const file = join(root, page.folder, 'index.json');
    mkdirSync(dirname(file), { recursive: true });
    const doc: Record<string, unknown> = {
      title: page.title,
      summary: `Summary of ${page.title}`,
      body: [{ type: 'prose', value: { id: 'intro', title: 'Intro', content: `<p>${page.body ?? ''}</p>` } }],
      popularity: page.popularity ?? 0,
    };
    if (page.url !== undefined) doc.url = page.url;
    if (page.locale !== undefined) doc.locale = page.locale;
    writeFileSync(file, JSON.stringify({ doc }));
  }
}

/** Writes raw bytes as `<folder>/index.json`. */
export function writeRaw(root: string, folder: string, content: string | Uint8Array): void {
  const file = join(root, folder, 'index.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}
