import type { IndexedDocument, SearchEngine, SearchHit } from '../../engines/types.js';

/** Documents of the contract suites. */

export interface DocOverrides {
  body?: string;
  summary?: string;
  popularity?: number;
  locale?: string;
  slug?: string;
}

export function doc(id: string, title: string, overrides: DocOverrides = {}): IndexedDocument {
  return {
    id,
    url: `/${id.replace(/^\//, '')}`,
    title,
    body: overrides.body ?? '',
    summary: overrides.summary ?? '',
    popularity: overrides.popularity ?? 0,
    locale: overrides.locale ?? 'en-US',
    slug: overrides.slug ?? id,
  };
}

export function ids(result: { documents: SearchHit[] }): string[] {
  return result.documents.map((hit) => hit.id);
}

/** What a contract suite is given by the harness (see contract.ts): the engine, and fresh indices and names it cleans up. */
export interface ContractContext {
  engine: () => SearchEngine;
  /** Creates an index of the run holding `documents`, refreshed; removed after the test. */
  indexWith: (documents: IndexedDocument[]) => Promise<string>;
  /** A name of the run no index or alias holds yet. */
  fresh: () => string;
}
