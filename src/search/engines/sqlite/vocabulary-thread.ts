import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { readVocabulary } from './spell-index.js';
import type { VocabularyAnswer, VocabularyRequest } from './vocabulary-reader.js';

/**
 * The thread that reads an index's vocabulary on a connection of its own (see readVocabularyInThread), while the
 * writer's connection merges the index's segments.
 */
const { path, index, vocabularyRows } = workerData as VocabularyRequest;
let answer: VocabularyAnswer;
const transfer: ArrayBuffer[] = [];
try {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const vocabulary = db.transaction(() => readVocabulary(db, index, vocabularyRows))();
    transfer.push(vocabulary.docs.buffer as ArrayBuffer);
    answer = { terms: vocabulary.terms.join(' '), docs: vocabulary.docs, documents: vocabulary.documents };
  } finally {
    db.close();
  }
} catch (error) {
  answer = { error: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(answer, transfer);
