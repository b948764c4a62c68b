import type { IndexedDocument, SearchEngine } from '../src/search/engines/types.js';
import { parseIndexJson } from '../src/search/indexing/reader.js';
import type { SyntheticDocument } from './corpus/synthetic.js';

/**
 * Writes generated documents into a new index of the engine as an index run would leave it: each parsed as the
 * content build's `index.json`, written in bulk calls, then refreshed, merged and made live under `alias`. `seen` is
 * told of each document, in order. Answers how many documents and bytes of JSON there were.
 */
export async function indexGenerated(
  engine: SearchEngine,
  names: { index: string; alias: string },
  documents: Iterable<SyntheticDocument>,
  seen: (document: IndexedDocument) => void,
): Promise<{ documents: number; bytes: number }> {
  await engine.createIndex(names.index);
  let chunk: IndexedDocument[] = [];
  let count = 0;
  let bytes = 0;
  for (const { folder, json } of documents) {
    const raw = Buffer.from(JSON.stringify(json));
    bytes += raw.length;
    const read = parseIndexJson(`${folder}/index.json`, raw);
    if (!('document' in read)) throw new Error(`generated document ${folder}: ${read.problem}`);
    chunk.push(read.document);
    seen(read.document);
    count++;
    if (chunk.length === 1000) {
      await engine.bulk(names.index, chunk);
      chunk = [];
    }
  }
  await engine.bulk(names.index, chunk);
  await engine.refresh(names.index);
  await engine.forceMerge(names.index);
  await engine.updateAliases([{ add: { index: names.index, alias: names.alias } }]);
  return { documents: count, bytes };
}
