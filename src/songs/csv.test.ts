import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseCsv } from './csv.js';

/** RFC 4180 writer used as the oracle: every field quoted, quotes doubled. */
function formatCsv(records: string[][], lineBreak: string): string {
  return records.map((fields) => fields.map((field) => `"${field.replace(/"/g, '""')}"`).join(',')).join(lineBreak);
}

function countLineBreaks(text: string): number {
  return (text.match(/\r\n|\r|\n/g) ?? []).length;
}

const field = fc.string({ unit: fc.constantFrom('a', 'é', ',', '"', '\n', '\r\n', ' ', 'z', '😀'), maxLength: 8 });
const records = fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { maxLength: 8 });

describe('parseCsv', () => {
  it('reads back every record a quoting writer wrote when fields hold commas, quotes and line breaks', () => {
    fc.assert(
      fc.property(records, fc.constantFrom('\n', '\r\n'), fc.boolean(), (written, lineBreak, trailing) => {
        const text = formatCsv(written, lineBreak) + (trailing && written.length > 0 ? lineBreak : '');
        const { records: read, problems } = parseCsv(text);
        assert.deepEqual(problems, []);
        assert.deepEqual(
          read.map((record) => record.fields),
          written,
        );
      }),
    );
  });

  it('numbers each record by the line it starts on when quoted fields span lines', () => {
    fc.assert(
      fc.property(records, (written) => {
        const text = formatCsv(written, '\n');
        const { records: read } = parseCsv(text);
        let line = 1;
        read.forEach((record, index) => {
          assert.equal(record.line, line);
          line += countLineBreaks(formatCsv([written[index] ?? []], '\n')) + 1;
        });
      }),
    );
  });

  it('reads unquoted fields, skips blank lines and a byte order mark', () => {
    const { records, problems } = parseCsv('\uFEFFid,name\r\n\r\n1,Imagine\n\n2,"Hey, Jude"\n');
    assert.deepEqual(problems, []);
    assert.deepEqual(records, [
      { line: 1, fields: ['id', 'name'] },
      { line: 3, fields: ['1', 'Imagine'] },
      { line: 5, fields: ['2', 'Hey, Jude'] },
    ]);
  });

  it('keeps a record of one quoted empty field and empty fields around commas', () => {
    assert.deepEqual(parseCsv('""\n,,\n').records, [
      { line: 1, fields: [''] },
      { line: 2, fields: ['', '', ''] },
    ]);
  });

  it('reports a quote inside an unquoted field and text after a closing quote, and goes on', () => {
    const { records, problems } = parseCsv('a,b"c\n"x"y,z\nok,1\n');
    assert.deepEqual(records, [{ line: 3, fields: ['ok', '1'] }]);
    assert.deepEqual(
      problems.map((problem) => problem.line),
      [1, 2],
    );
    assert.match(problems[0]?.message ?? '', /quote inside unquoted field 2/);
    assert.match(problems[1]?.message ?? '', /after the closing quote of field 1/);
  });

  it('reports an unterminated quoted field with the line it starts on', () => {
    const { records, problems } = parseCsv('a,b\n1,"never\nclosed\n');
    assert.deepEqual(records, [{ line: 1, fields: ['a', 'b'] }]);
    assert.deepEqual(problems, [{ line: 2, message: 'unterminated quoted field 2' }]);
  });
});
