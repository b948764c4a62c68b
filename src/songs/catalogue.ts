import { parseCsv, type CsvProblem } from './csv.js';
import { parseSongId } from './song-id.js';
import type { Song } from './types.js';

export const CATALOGUE_HEADER = ['id', 'name', 'artist', 'album', 'year'] as const;

/** Longest name, artist or album a catalogue may hold. */
export const MAX_TEXT_LENGTH = 500;

export interface CatalogueParseResult {
  songs: Song[];
  problems: CsvProblem[];
}

/** C0 and C1 control characters, tabs and line breaks included: none belongs in a song's name. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

function checkText(field: string, value: string, required: boolean): string | undefined {
  if (required && value.trim() === '') return `${field} is empty`;
  if (value.length > MAX_TEXT_LENGTH) return `${field} is longer than ${MAX_TEXT_LENGTH} characters`;
  if (hasControlCharacter(value)) return `${field} contains a control character`;
  return undefined;
}

/**
 * Reads a song catalogue: CSV with the header `id,name,artist,album,year`, ids positive integers, name and artist
 * required, album and year optional (empty), year a whole number from 1 to 9999. Every problem is reported with its
 * line; a later row with the same id replaces the earlier one.
 */
export function parseCatalogue(text: string): CatalogueParseResult {
  const { records, problems } = parseCsv(text);
  const [header, ...rows] = records;
  if (header === undefined) {
    return { songs: [], problems: [...problems, { line: 1, message: `the file is empty; expected the header ${CATALOGUE_HEADER.join(',')}` }] };
  }
  const names = header.fields.map((field) => field.trim().toLowerCase());
  if (names.join(',') !== CATALOGUE_HEADER.join(',')) {
    problems.unshift({ line: header.line, message: `expected the header ${CATALOGUE_HEADER.join(',')}, got ${JSON.stringify(header.fields.join(','))}` });
    return { songs: [], problems };
  }
  const songs = new Map<number, Song>();
  for (const { line, fields } of rows) {
    if (fields.length !== CATALOGUE_HEADER.length) {
      problems.push({ line, message: `expected ${CATALOGUE_HEADER.length} fields, got ${fields.length}` });
      continue;
    }
    const [idText, name, artist, album, yearText] = fields.map((field) => field.trim()) as [string, string, string, string, string];
    const rowProblems: string[] = [];
    const id = parseSongId(idText);
    if (id === undefined) rowProblems.push(`id ${JSON.stringify(idText)} is not a positive integer (no sign, leading zeros or exponent; at most 2^53-1)`);
    for (const problem of [checkText('name', name, true), checkText('artist', artist, true), checkText('album', album, false)]) {
      if (problem !== undefined) rowProblems.push(problem);
    }
    const year = yearText === '' ? null : /^\d{1,4}$/.test(yearText) && Number(yearText) >= 1 ? Number(yearText) : undefined;
    if (year === undefined) rowProblems.push(`year ${JSON.stringify(yearText)} is not a whole number from 1 to 9999`);
    if (rowProblems.length > 0 || id === undefined || year === undefined) {
      problems.push({ line, message: rowProblems.join('; ') });
      continue;
    }
    songs.delete(id);
    songs.set(id, { id, name, artist, album: album === '' ? null : album, year });
  }
  problems.sort((a, b) => a.line - b.line);
  return { songs: [...songs.values()], problems };
}
