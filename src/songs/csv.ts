/** One record of a CSV text, with the line it starts on (1-based), for error messages. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export interface CsvProblem {
  line: number;
  message: string;
}

export interface CsvParseResult {
  records: CsvRecord[];
  problems: CsvProblem[];
}

/**
 * Parses CSV as RFC 4180 describes it: fields separated by commas, records by CRLF (LF and a lone CR are accepted
 * too), fields in double quotes may hold commas, quotes (doubled) and line breaks. Blank lines are skipped and a leading
 * byte order mark is ignored. A malformed record is reported with its line and left out; the rest is still parsed, so
 * that every problem of a file is reported at once. An unterminated quoted field ends parsing.
 */
export function parseCsv(input: string): CsvParseResult {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  const length = text.length;
  let i = 0;
  let line = 1;

  const atFieldEnd = () => i >= length || text[i] === ',' || text[i] === '\n' || text[i] === '\r';

  while (i < length) {
    const recordLine = line;
    const fields: string[] = [];
    let problem: string | undefined;
    let quoted = false;
    for (;;) {
      if (text[i] === '"') {
        quoted = true;
        i++;
        let value = '';
        let closed = false;
        while (i < length) {
          const char = text[i] as string;
          if (char === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (char === '\n' || (char === '\r' && text[i + 1] !== '\n')) line++;
          value += char;
          i++;
        }
        if (!closed) {
          problems.push({ line: recordLine, message: `unterminated quoted field ${fields.length + 1}` });
          return { records, problems };
        }
        fields.push(value);
        if (!atFieldEnd()) {
          problem ??= `unexpected text after the closing quote of field ${fields.length}`;
          while (!atFieldEnd()) i++;
        }
      } else {
        const start = i;
        while (!atFieldEnd()) {
          if (text[i] === '"') problem ??= `quote inside unquoted field ${fields.length + 1} (quote the field and double the quote)`;
          i++;
        }
        fields.push(text.slice(start, i));
      }
      if (text[i] === ',') {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i++;
    if (text[i] === '\n') i++;
    line++;
    if (problem !== undefined) problems.push({ line: recordLine, message: problem });
    else if (quoted || fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields });
  }
  return { records, problems };
}
