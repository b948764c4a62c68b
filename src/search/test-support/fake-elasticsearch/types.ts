/** Shared shapes of the fake Elasticsearch: tokens, mappings, stored documents, indices, and its error. */

export interface Token {
  term: string;
  start: number;
  end: number;
  position: number;
}

export type Json = Record<string, unknown>;
export type Analyzer = (text: string) => Token[];

export interface FieldMapping {
  type: 'text' | 'keyword' | 'float';
  analyzer: Analyzer;
  searchAnalyzer: Analyzer;
  normalize: (value: string) => string;
  indexed: boolean;
  norms: boolean;
  copyTo: string[];
}

export interface IndexedField {
  tokens: Token[];
  frequencies: Map<string, number>;
  length: number;
  text: string;
}

export interface StoredDoc {
  id: string;
  seq: number;
  source: Json;
  text: Map<string, IndexedField>;
  keywords: Map<string, string[]>;
  numbers: Map<string, number>;
}

export interface FakeIndex {
  name: string;
  definition: Json;
  fields: Map<string, FieldMapping>;
  docs: Map<string, StoredDoc>;
  /** What search sees: the documents as of the last refresh. */
  visible: Map<string, StoredDoc>;
  aliases: Set<string>;
}

export type Fault = 'connection' | 'timeout' | { status: number; type?: string };

export class EsError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
  ) {
    super(reason);
  }
}
