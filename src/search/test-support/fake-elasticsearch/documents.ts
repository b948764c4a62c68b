import { EsError } from './types.js';
import type { FakeIndex, FieldMapping, Json, StoredDoc, Token } from './types.js';

/** Positions between the values of a multi-valued field, so that no phrase matches across two of them. */
const POSITION_GAP = 100;

/**
 * A document as an index of the stand-in stores it: its fields checked against the mappings, keywords normalised,
 * numbers as floats, and text analysed into tokens with their frequencies. `nextSeq` numbers it once it is valid.
 */
export function storedDocument(index: FakeIndex, id: string, source: Json, nextSeq: () => number): StoredDoc {
  if (id === '' || Buffer.byteLength(id) > 512) throw new EsError(400, 'illegal_argument_exception', 'id must be 1 to 512 bytes');
  const doc: StoredDoc = { id, seq: nextSeq(), source, text: new Map(), keywords: new Map(), numbers: new Map() };
  const texts = new Map<string, string[]>();
  const dynamic = ((index.definition['mappings'] ?? {}) as Json)['dynamic'];
  for (const [field, value] of Object.entries(source)) {
    const mapping = index.fields.get(field);
    if (mapping === undefined) {
      if (dynamic === 'strict') throw new EsError(400, 'strict_dynamic_mapping_exception', `[1:1] mapping set to strict, dynamic introduction of [${field}] within [_doc] is not allowed`);
      continue;
    }
    if (value === null) continue;
    if (mapping.type === 'float') {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(number)) throw new EsError(400, 'document_parsing_exception', `failed to parse field [${field}] of type [float]`);
      doc.numbers.set(field, Math.fround(number));
      continue;
    }
    // An array gives the field several values, as Elasticsearch takes any field's.
    const values = Array.isArray(value) ? (value as unknown[]) : [value];
    if (values.some((item) => typeof item === 'object')) throw new EsError(400, 'document_parsing_exception', `failed to parse field [${field}] of type [${mapping.type}]`);
    for (const target of [field, ...[...index.fields.keys()].filter((key) => key.startsWith(`${field}.`)), ...mapping.copyTo]) {
      texts.set(target, [...(texts.get(target) ?? []), ...values.map(String)]);
    }
  }
  for (const [field, values] of texts) {
    const mapping = index.fields.get(field) as FieldMapping;
    if (!mapping.indexed) continue;
    if (mapping.type === 'keyword') {
      doc.keywords.set(field, values.map((value) => mapping.normalize(value)));
      continue;
    }
    const tokens: Token[] = [];
    let position = 0;
    for (const value of values) {
      const analysed = mapping.analyzer(value);
      for (const token of analysed) tokens.push({ ...token, position: position + token.position });
      position += (analysed.at(-1)?.position ?? 0) + POSITION_GAP;
    }
    const frequencies = new Map<string, number>();
    for (const token of tokens) frequencies.set(token.term, (frequencies.get(token.term) ?? 0) + 1);
    doc.text.set(field, { tokens, frequencies, length: tokens.length, text: values.join(' ') });
  }
  return doc;
}
