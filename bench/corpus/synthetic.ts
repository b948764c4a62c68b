import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seededRandom } from '../../src/seeded-random.js';
import { proseBody } from './sections.js';
import { zipfSampler } from './zipf.js';

/**
 * A synthetic content build for benchmarks and quality checks: documents shaped like MDN's `index.json` files, with
 * a pseudo-English vocabulary drawn by a Zipf distribution, several locales, and 1–20 KB bodies of sections, notes,
 * hidden blocks, lists, tables and code. Deterministic for a given seed.
 */

export interface SyntheticOptions {
  /** Documents to generate. @default 50_000 */
  documents?: number;
  /** PRNG seed; the same seed gives the same build. @default 1 */
  seed?: number;
  /** Distinct words of the vocabulary. @default 4000 */
  vocabularySize?: number;
}

export const SYNTHETIC_DEFAULTS = { documents: 50_000, seed: 1, vocabularySize: 4000 } as const;

/** Locales and their share of the documents; the first is the primary locale. */
export const SYNTHETIC_LOCALES = [
  ['en-US', 0.5],
  ['fr', 0.12],
  ['de', 0.1],
  ['es', 0.1],
  ['pt-BR', 0.08],
  ['ja', 0.05],
  ['zh-CN', 0.05],
] as const;

const SECTIONS = ['Web/API', 'Web/CSS', 'Web/HTML', 'Web/JavaScript/Reference', 'Web/HTTP', 'Learn', 'Glossary', 'Mozilla/Add-ons'];
const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'ch', 'cl', 'cr', 'dr', 'fl', 'gr', 'pl', 'pr', 'sh', 'sl', 'st', 'str', 'th', 'tr'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ee', 'io', 'ou', 'é', 'ü'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'nd', 'ng', 'rt', 'st', 'x', 'ck'];
const REAL_WORDS = [
  'the', 'of', 'and', 'to', 'a', 'in', 'is', 'that', 'for', 'it', 'as', 'with', 'be', 'on', 'this', 'by', 'are', 'or',
  'element', 'attribute', 'property', 'method', 'event', 'function', 'object', 'value', 'string', 'number', 'array',
  'promise', 'fetch', 'request', 'response', 'header', 'cache', 'selector', 'layout', 'grid', 'flexbox', 'animation',
  'transform', 'color', 'font', 'border', 'margin', 'padding', 'display', 'position', 'document', 'window', 'node',
  'canvas', 'audio', 'video', 'storage', 'worker', 'service', 'stream', 'buffer', 'socket', 'cookie', 'origin',
  'security', 'policy', 'permission', 'browser', 'compatibility', 'specification', 'syntax', 'example', 'returns',
];


export interface Vocabulary {
  words: readonly string[];
  /** A word drawn with Zipf's law (rank r has weight 1/r). */
  draw(): string;
}

export function syntheticVocabulary(random: () => number, size: number = SYNTHETIC_DEFAULTS.vocabularySize): Vocabulary {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const seen = new Set<string>(REAL_WORDS);
  const words = [...REAL_WORDS];
  while (words.length < size) {
    const syllables = 1 + Math.floor(random() * 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(ONSETS) + pick(VOWELS);
    word += pick(CODAS);
    if (word.length >= 3 && !seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  const sample = zipfSampler(words);
  return {
    words,
    draw: () => sample(random),
  };
}

/** The shape of one synthetic `index.json`. */
export interface SyntheticIndexJson {
  doc: {
    title: string;
    summary: string;
    mdn_url: string;
    locale: string;
    popularity: number;
    body: { type: 'prose'; value: { id: string; title: string; content: string } }[];
  };
}

export interface SyntheticDocument {
  /** Folder path relative to the build root, e.g. `en-us/docs/web/api/fetch_3`. */
  folder: string;
  json: SyntheticIndexJson;
}

/** Generates the documents one at a time, so a large build never sits in memory. */
export function* syntheticDocuments(options: SyntheticOptions = {}): Generator<SyntheticDocument> {
  const count = options.documents ?? SYNTHETIC_DEFAULTS.documents;
  const random = seededRandom(options.seed ?? SYNTHETIC_DEFAULTS.seed);
  const vocabulary = syntheticVocabulary(random, options.vocabularySize ?? SYNTHETIC_DEFAULTS.vocabularySize);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const words = (n: number) => Array.from({ length: n }, () => vocabulary.draw()).join(' ');
  const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const sentence = () => `${capital(words(6 + Math.floor(random() * 12)))}.`;
  const paragraph = () => {
    const parts = Array.from({ length: 2 + Math.floor(random() * 4) }, sentence);
    if (random() < 0.5) parts.splice(1, 0, `<code>${vocabulary.draw()}()</code>`);
    if (random() < 0.3) parts.push(`<a href="/docs/${vocabulary.draw()}">${words(2)}</a> &amp; <strong>${words(2)}</strong>.`);
    return `<p>${parts.join(' ')}</p>`;
  };
  const block = () => {
    const kind = random();
    if (kind < 0.55) return paragraph();
    if (kind < 0.65) return `<ul>${Array.from({ length: 3 + Math.floor(random() * 4) }, () => `<li>${words(4)}</li>`).join('')}</ul>`;
    if (kind < 0.72) return `<table><tr><th>${words(1)}</th><th>${words(1)}</th></tr><tr><td>${words(3)}</td><td>${words(3)}</td></tr></table>`;
    if (kind < 0.82) return `<pre class="brush: js"><code>const ${vocabulary.draw()} = await ${vocabulary.draw()}(&quot;${words(1)}&quot;);\nconsole.log(${vocabulary.draw()});</code></pre>`;
    if (kind < 0.88) return `<div class="notecard note"><p><strong>Note:</strong> ${sentence()}</p></div>`;
    if (kind < 0.93) return `<div class="notecard warning"><p><strong>Warning:</strong> ${sentence()}</p></div>`;
    if (kind < 0.97) return `<div class="hidden">${paragraph()}</div>`;
    return `<p style="display: none">${sentence()}</p><script>window.${vocabulary.draw()} = 1;</script>`;
  };
  const localeWeights = SYNTHETIC_LOCALES.map(([, share]) => share);
  for (let i = 0; i < count; i++) {
    let draw = random();
    let localeIndex = 0;
    while (localeIndex < localeWeights.length - 1 && draw >= (localeWeights[localeIndex] as number)) {
      draw -= localeWeights[localeIndex] as number;
      localeIndex++;
    }
    const locale = SYNTHETIC_LOCALES[localeIndex]?.[0] ?? 'en-US';
    const title = capital(words(2 + Math.floor(random() * 4)));
    const slug = `docs/${pick(SECTIONS)}/${title.replace(/[^\p{L}\p{N}]+/gu, '_')}_${i}`;
    const targetBytes = Math.round(1024 * Math.exp(random() * Math.log(20)));
    const body = proseBody(
      targetBytes,
      (remaining) => {
        const title = capital(words(1 + Math.floor(random() * 3)));
        return { title, id: title.toLowerCase().replace(/\s+/g, '_'), bytes: Math.min(remaining, 800 + Math.floor(random() * 3000)) };
      },
      block,
    );
    yield {
      folder: `${locale.toLowerCase()}/${slug.toLowerCase()}`,
      json: {
        doc: {
          title,
          summary: sentence(),
          mdn_url: `/${locale}/${slug}`,
          locale,
          popularity: Math.round(Math.pow(random(), 8) * 1e4) / 1e4,
          body,
        },
      },
    };
  }
}

/** Writes a synthetic build under `root` (one `<folder>/index.json` per document) and returns the bytes written. */
export async function writeSyntheticBuild(root: string, options: SyntheticOptions = {}): Promise<{ documents: number; bytes: number }> {
  let documents = 0;
  let bytes = 0;
  for (const { folder, json } of syntheticDocuments(options)) {
    const directory = join(root, folder);
    await mkdir(directory, { recursive: true });
    const text = JSON.stringify(json);
    await writeFile(join(directory, 'index.json'), text);
    documents++;
    bytes += Buffer.byteLength(text);
  }
  return { documents, bytes };
}
