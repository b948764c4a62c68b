import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCatalogue } from './catalogue.js';

const HEADER = 'id,name,artist,album,year\n';

describe('parseCatalogue', () => {
  it('reads songs with quoted commas, quotes, line breaks kept out and unicode when the file is well-formed', () => {
    const { songs, problems } = parseCatalogue(
      `${HEADER}1,"Hey Jude",The Beatles,"Hey Jude",1968\n2,"Crazy in Love","Beyoncé","Dangerously in Love",2003\n3,"Heroes","David Bowie","""Heroes""",\n4,Untitled,Nobody,,\n`,
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(songs, [
      { id: 1, name: 'Hey Jude', artist: 'The Beatles', album: 'Hey Jude', year: 1968 },
      { id: 2, name: 'Crazy in Love', artist: 'Beyoncé', album: 'Dangerously in Love', year: 2003 },
      { id: 3, name: 'Heroes', artist: 'David Bowie', album: '"Heroes"', year: null },
      { id: 4, name: 'Untitled', artist: 'Nobody', album: null, year: null },
    ]);
  });

  it('keeps the last row of a repeated id', () => {
    const { songs } = parseCatalogue(`${HEADER}7,Old,A,,\n8,Other,B,,\n7,New,A,,1999\n`);
    assert.deepEqual(songs, [
      { id: 8, name: 'Other', artist: 'B', album: null, year: null },
      { id: 7, name: 'New', artist: 'A', album: null, year: 1999 },
    ]);
  });

  it('reports every bad row by line when ids, names, years or field counts are wrong', () => {
    const text = [
      'id,name,artist,album,year',
      '1,Fine,Artist,,',
      '0,Zero,A,,',
      '-1,Negative,A,,',
      '1e3,Exponent,A,,',
      '007,Leading zeros,A,,',
      '99999999999999999999,Huge,A,,',
      '../1,Path,A,,',
      '٣,Arabic digit,A,,',
      '2,,A,,',
      '3,Name,,,',
      '4,Name,A,,19x9',
      '5,Name,A,,10000',
      '6,too,few',
      '7,too,many,fields,1,2',
      `8,${'x'.repeat(501)},A,,`,
      '9,"Tab\there",A,,',
      '10,"Line\nbreak",A,,',
    ].join('\n');
    const { songs, problems } = parseCatalogue(text);
    assert.deepEqual(
      songs.map((song) => song.id),
      [1],
    );
    assert.deepEqual(
      problems.map((problem) => problem.line),
      [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
    );
    assert.match(problems.find((p) => p.line === 10)?.message ?? '', /name is empty/);
    assert.match(problems.find((p) => p.line === 12)?.message ?? '', /year "19x9"/);
    assert.match(problems.find((p) => p.line === 14)?.message ?? '', /expected 5 fields, got 3/);
    assert.match(problems.find((p) => p.line === 16)?.message ?? '', /longer than 500/);
    assert.match(problems.find((p) => p.line === 18)?.message ?? '', /control character/);
  });

  it('refuses a file whose header is not id,name,artist,album,year', () => {
    const { songs, problems } = parseCatalogue('id,title,artist,album,year\n1,A,B,,\n');
    assert.deepEqual(songs, []);
    assert.match(problems[0]?.message ?? '', /expected the header id,name,artist,album,year/);
  });

  it('accepts the header in any case and with spaces around names', () => {
    assert.equal(parseCatalogue(' ID , Name,ARTIST,album,year\n1,A,B,,\n').songs.length, 1);
  });

  it('reports an empty file', () => {
    assert.match(parseCatalogue('').problems[0]?.message ?? '', /empty/);
  });
});
