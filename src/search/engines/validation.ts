import { isDocumentAnalysis } from '../analysis/index.js';
import { ERRORS } from '../../error-codes.js';
import type { AppError } from '../../errors.js';
import type { IndexedDocument } from './types.js';

/** Elasticsearch's index-name rules, narrowed to ASCII: every engine accepts exactly these names. */
const INDEX_NAME = /^[a-z0-9][a-z0-9_-]{0,199}$/;

export function validIndexName(name: string): boolean {
  return typeof name === 'string' && INDEX_NAME.test(name);
}

export function indexNotFound(name: string): AppError {
  return ERRORS.INDEX_NOT_FOUND(name);
}

export function indexExists(name: string): AppError {
  return ERRORS.INDEX_EXISTS(name);
}

/** A query's size-like option as a whole number within [min, max]; `fallback` when unset or not finite. */
export function clampInteger(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/** Longest accepted document id, in characters (Elasticsearch's limit is 512 bytes). */
export const MAX_ID_LENGTH = 512;

const TEXT_FIELDS = ['url', 'title', 'body', 'summary', 'locale', 'slug'] as const;

/** Why a document cannot be indexed, or undefined when it can. Engines report this as a failed bulk item. */
export function validateDocument(document: IndexedDocument): string | undefined {
  if (document === null || typeof document !== 'object') return 'document is not an object';
  if (typeof document.id !== 'string' || document.id === '') return 'id must be a non-empty string';
  if (Buffer.byteLength(document.id) > MAX_ID_LENGTH) return `id is longer than ${MAX_ID_LENGTH} bytes`;
  for (const field of TEXT_FIELDS) {
    if (typeof document[field] !== 'string') return `${field} must be a string`;
  }
  if (document.title.trim() === '') return 'title must not be empty';
  if (typeof document.popularity !== 'number' || !(document.popularity >= 0 && document.popularity <= 1)) {
    return 'popularity must be a number from 0 to 1';
  }
  if (document.analysis !== undefined && !isDocumentAnalysis(document.analysis)) return 'analysis must hold the terms of every field as strings';
  return undefined;
}
