import { ERRORS } from '../../../error-codes.js';
import { startThread, threadModule } from '../../threads.js';
import type { Vocabulary } from './spell-index.js';

/** What the vocabulary thread is given. */
export interface VocabularyRequest {
  path: string;
  index: string;
  /** The SQL of vocabularyRowsSql. */
  vocabularyRows: string;
}

/** What it answers: the terms joined by spaces (a term holds none), their document counts, or why it could not. */
export type VocabularyAnswer = { terms: string; docs: Float64Array; documents: number } | { error: string };

/**
 * The vocabulary of `index` in the database file at `path` (see readVocabulary), read by a thread of its own on a
 * connection of its own, from the last state committed when it starts: the writer's connection merges the segments
 * of the index meanwhile (FTS5's optimize), which changes no term and no count, instead of reading the vocabulary
 * after the merge with the other cores idle.
 */
export function readVocabularyInThread(request: VocabularyRequest): Promise<Vocabulary> {
  return new Promise((resolve, reject) => {
    const thread = startThread(threadModule(import.meta.url, 'vocabulary-thread'), request);
    thread.once('message', (answer: VocabularyAnswer) => {
      if ('error' in answer) reject(ERRORS.VOCABULARY_READ_FAILED(request.index, answer.error));
      else resolve({ terms: answer.terms === '' ? [] : answer.terms.split(' '), docs: answer.docs, documents: answer.documents });
    });
    thread.once('error', reject);
    thread.once('exit', (code) => reject(ERRORS.VOCABULARY_READ_FAILED(request.index, { exitCode: code })));
  });
}
