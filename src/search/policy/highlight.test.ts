import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { beginningOf, eachTermAWord, fragmentsOf, fragmentsOfBeginning, isSafeFragment, titleOf } from './highlight-fragments.js';
import { foldLatin1, matchWords } from './highlight-matches.js';
import { fold, stemLanguageOf, stemOf, termsOfWord, type StemLanguage } from '../analysis/index.js';
import { MARK_CLOSE, MARK_OPEN, markedFragments, markedTitle, parseMarked } from '../test-support/marked.js';

const mark = (word: string) => `${MARK_OPEN}${word}${MARK_CLOSE}`;

describe('markedFragments', () => {
  it('returns nothing when no word is marked', () => {
    assert.deepEqual(markedFragments('plain text only'), []);
    assert.deepEqual(markedTitle('plain'), []);
  });

  it('escapes marked text and keeps only <mark> from markers', () => {
    assert.deepEqual(markedTitle(`<b>${MARK_OPEN}x${MARK_CLOSE}</b> & "q"`), ['&lt;b&gt;<mark>x</mark>&lt;/b&gt; &amp; &quot;q&quot;']);
  });

  it('escapes hostile text and keeps only <mark> as markup', () => {
    const text = `<script>alert("x")</script> & ${mark('<img src=x onerror=alert(1)>')} '${mark('q')}'`;
    const [fragment] = markedFragments(text);
    assert.equal(fragment, '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; <mark>&lt;img src=x onerror=alert(1)&gt;</mark> &#39;<mark>q</mark>&#39;');
    assert.ok(isSafeFragment(fragment ?? ''));
  });

  it('returns at most 3 windows of about 120 characters, in text order, preferring words not shown yet', () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const text = `${filler(40)} ${mark('alpha')} ${filler(40)} ${mark('alpha')} ${filler(40)} ${mark('beta')} ${filler(40)} ${mark('gamma')} ${filler(40)} ${mark('delta')}`;
    const fragments = markedFragments(text);
    assert.equal(fragments.length, 3);
    assert.deepEqual(fragments.map((fragment) => /<mark>(\w+)<\/mark>/.exec(fragment)?.[1]), ['alpha', 'beta', 'gamma']);
    for (const fragment of fragments) {
      const length = fragment.replace(/<\/?mark>/g, '').length;
      assert.ok(length >= 80 && length <= 170, `${length}: ${fragment}`);
      assert.ok(fragment.startsWith('…') && fragment.endsWith('…'));
    }
    assert.equal(markedFragments(text, { fragments: 1 }).length, 1);
  });

  it('never splits a surrogate pair at a window edge', () => {
    const text = `${'😀'.repeat(200)}${mark('x')}${'😀'.repeat(200)}`;
    for (const fragment of markedFragments(text)) assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(fragment));
  });

  it('yields only safe fragments that keep every marked word of the window, for any text (property)', () => {
    const piece = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ maxLength: 8 }).map(mark));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const fragments = markedFragments(pieces.join(''));
        assert.ok(fragments.length <= 3);
        for (const fragment of fragments) assert.ok(isSafeFragment(fragment), fragment);
        if (parseMarked(pieces.join('')).matches.length > 0) assert.ok(fragments.length >= 1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('foldLatin1', () => {
  const latin1 = fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 700 });

  it('folds Latin-1 text as the analysis module folds it, or gives undefined where that is not one Latin-1 character per character (property)', () => {
    fc.assert(
      fc.property(latin1, (text) => {
        const folded = foldLatin1(text);
        // fold() decomposes runs; between letters, each character folds alone.
        const alone = Array.from(text, (character) => (character === '\0' ? '' : fold(`a${character}a`).slice(1, -1)));
        const byTable = alone.every((character) => character.length === 1 && character.charCodeAt(0) < 0x100);
        if (folded === undefined) assert.ok(!byTable, `only text the table cannot fold gives undefined: ${JSON.stringify(text)}`);
        else assert.equal(folded, alone.join(''));
      }),
      { numRuns: 2000 },
    );
  });

  it('lower-cases ASCII text of any length and alignment, and gives undefined for a NUL anywhere', () => {
    const ascii = 'The Quick BROWN fox, 42 [Jumps] @ `Z`~';
    for (let length = 0; length <= ascii.length; length++) {
      const text = ascii.slice(0, length);
      assert.equal(foldLatin1(text), text.toLowerCase());
      for (let at = 0; at <= length; at++) assert.equal(foldLatin1(`${text.slice(0, at)}\0${text.slice(at)}`), undefined);
    }
    assert.equal(foldLatin1('Ä'.repeat(9000)), 'a'.repeat(9000));
  });
});

describe('matchWords', () => {
  const ranges = (text: string, terms: string[], prefixes?: string[]) => {
    const source = matchWords(text, { terms: new Set(terms), ...(prefixes === undefined ? {} : { prefixes }) });
    source.scanTo(text.length);
    return source.found.map(([start, end]) => text.slice(start, end));
  };

  it('marks whole words whatever their case and diacritics, never parts of words', () => {
    assert.deepEqual(ranges('Café or CAFE and cafeteria; décafé', ['cafe']), ['Café', 'CAFE']);
    assert.deepEqual(ranges('Ünïcödé text', ['unicode']), ['Ünïcödé']);
  });

  it('marks consecutive matched words as one range, so a matched phrase is one mark', () => {
    assert.deepEqual(ranges('a service worker, then service and worker', ['service', 'worker']), ['service worker', 'service', 'worker']);
    assert.deepEqual(titleOf(matchWords('Service Worker API', { terms: new Set(['service', 'worker']) })), ['<mark>Service Worker</mark> API']);
  });

  it('marks every word starting with a prefix as a whole word', () => {
    assert.deepEqual(ranges('fetching fetch prefetch Fetcher', [], ['fetch']), ['fetching fetch', 'Fetcher']);
  });

  it('finds words past a chunk and in text whose folding changes its length', () => {
    const far = `${'lorem ipsum '.repeat(1000)}osprey`;
    assert.deepEqual(ranges(far, ['osprey']), ['osprey']);
    assert.deepEqual(ranges('ﬁne cafe\u0301 ﬁsh café', ['cafe']), ['cafe\u0301', 'café']);
    assert.deepEqual(ranges('日本語 テキスト 日本語', ['日本語']), ['日本語', '日本語']);
  });

  /** Checks on texts of `word`s that the words marked are exactly those one of whose terms is asked for. */
  const marksExactlyTheWordsOfTerms = (word: fc.Arbitrary<string>, terms: string[]) =>
    fc.assert(
      fc.property(fc.array(word, { maxLength: 300 }), fc.subarray(terms, { minLength: 1 }), (words, wanted) => {
        const text = words.join(' ');
        const expected = [...text.matchAll(/[\p{L}\p{N}\p{M}\p{Co}]+/gu)].filter((match) => termsOfWord(match[0]).some((term) => wanted.includes(term)));
        const found = ranges(text, wanted).flatMap((range) => range.split(/[^\p{L}\p{N}\p{M}\p{Co}]+/u).filter((part) => part !== ''));
        assert.deepEqual(found, expected.map((match) => match[0]));
      }),
      { numRuns: 300 },
    );

  it('marks exactly the words whose folding is a term when the text is accented Latin (property)', () => {
    const word = fc.constantFrom('Café', 'cafe', 'ÉTÉ', 'été', 'Straße', 'ØRE', 'øre', 'İstanbul', 'istanbul', 'ĳs', 'ijs', '¼', 'naïve', 'Ŀa', 'x', '\u00a0', '😀', 'Ǆem');
    const terms = ['cafe', 'ete', 'straße', 'øre', 'istanbul', 'ijs', 'naive', 'dzem'];
    marksExactlyTheWordsOfTerms(word, terms);
  });

  it('marks exactly the words whose folding is a term when the text holds Latin-1 characters only, folded through a table (property)', () => {
    // Characters the table leaves out (`µ` folds to `μ`, `½` to three) are rare, so that most chunks go through it.
    const word = fc.oneof(
      { weight: 50, arbitrary: fc.constantFrom('Café', 'cafe', 'ÉTÉ', 'été', 'Straße', 'ØRE', 'øre', 'NAÏVE', 'naive', 'Æther', 'ÿes', 'x', '\u00a0', '«', '»') },
      { weight: 1, arbitrary: fc.constantFrom('µs', '½') },
    );
    const terms = ['cafe', 'ete', 'straße', 'øre', 'naive', 'æther', 'yes', 'μs', '1', '2'];
    marksExactlyTheWordsOfTerms(word, terms);
  });

  it('marks exactly the words whose analysis matches a query term or another form of it, identifiers and stems included (property)', () => {
    const english = stemLanguageOf('en') as StemLanguage;
    const word = fc.constantFrom('getElementById', 'element', 'Elements', 'Array.prototype.map', 'mapping', 'maps', 'measure', 'Measuring', 'measured', 'happy', 'happiness', 'iperf3', 'by', 'bypass', '—', ',', '(x)');
    const queries = ['element', 'map', 'measure', 'happy', 'iperf3', 'id'];
    fc.assert(
      fc.property(fc.array(word, { maxLength: 200 }), fc.subarray(queries, { minLength: 1 }), (words, wanted) => {
        const text = words.join(' ');
        const stems = new Set(wanted.map((term) => stemOf(english, term)));
        const matches = (term: string) => wanted.includes(term) || stems.has(stemOf(english, term));
        const matcher = { terms: new Set(wanted), otherForms: { anchors: [...stems].map((stem) => (stem.length > 3 ? stem.slice(0, -1) : stem)), matches } };
        const expected = [...text.matchAll(/[\p{L}\p{N}\p{M}\p{Co}]+/gu)].filter((match) => termsOfWord(match[0]).some(matches)).map((match) => match[0]);
        const source = matchWords(text, matcher);
        source.scanTo(text.length);
        const found = source.found.flatMap(([start, end]) => text.slice(start, end).split(/[^\p{L}\p{N}\p{M}\p{Co}]+/u).filter((part) => part !== ''));
        assert.deepEqual(found, expected);
      }),
      { numRuns: 300 },
    );
  });

  it('yields the same fragments as engine-marked text of the same matches (property)', () => {
    const word = fc.constantFrom('alpha', 'Beta', 'gämma', 'delta', 'x', '&', '<b>', '😀', ' ', ', ');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 400 }), (words) => {
        const text = words.join(' ');
        const terms = new Set(['alpha', 'gamma']);
        const source = matchWords(text, { terms });
        const fragments = fragmentsOf(source, {}, eachTermAWord(terms));
        for (const fragment of fragments) assert.ok(isSafeFragment(fragment), fragment);
        source.scanTo(text.length);
        let marked = '';
        let at = 0;
        for (const [start, end] of source.found) {
          marked += `${text.slice(at, start)}${mark(text.slice(start, end))}`;
          at = end;
        }
        marked += text.slice(at);
        assert.equal(fragments.length, markedFragments(marked).length);
        assert.equal(fragments.length > 0, /alpha|gämma/i.test(text));
      }),
      { numRuns: 200 },
    );
  });
});

describe('fragmentsOfBeginning', () => {
  const terms = new Set(['heron', 'egret']);
  const filler = (words: number) => Array.from({ length: words }, (_, i) => `w${i % 97}`).join(' ');

  it('gives the whole text\'s fragments when they all lie well before the cut, and nothing to trust when one does not', () => {
    const early = `heron ${filler(1000)} egret ${filler(3000)} heron ${filler(3000)}`;
    const beginning = beginningOf(early, 16_384);
    assert.ok(beginning.length <= 16_384 && early[beginning.length] === ' ', 'cut before a space');
    assert.deepEqual(fragmentsOfBeginning(matchWords(beginning, { terms }), {}, eachTermAWord(terms)), fragmentsOf(matchWords(early, { terms }), {}, eachTermAWord(terms)));
    const late = `heron ${filler(4000)} egret`;
    assert.equal(fragmentsOfBeginning(matchWords(beginningOf(late, 16_384), { terms }), {}, eachTermAWord(terms)), undefined, 'egret lies past the cut');
    const newWordLater = `heron ${filler(300)} heron ${filler(300)} heron ${filler(900)} egret ${filler(3000)}`;
    assert.equal(fragmentsOfBeginning(matchWords(beginningOf(newWordLater, 4000), { terms }), {}, eachTermAWord(terms)), undefined, 'a cut before NEW_WORDS_WITHIN');
    assert.match(fragmentsOf(matchWords(newWordLater, { terms }), {}, eachTermAWord(terms)).join(' '), /<mark>egret<\/mark>/, 'where the whole text shows egret');
    const atCut = `${filler(3000)} heron ${filler(3000)}`;
    const cut = atCut.indexOf('heron') + 'heron'.length;
    assert.equal(fragmentsOfBeginning(matchWords(beginningOf(atCut, cut), { terms }), { fragments: 1 }, eachTermAWord(terms)), undefined, 'a fragment ending at the cut');
    assert.match(fragmentsOf(matchWords(atCut, { terms }), { fragments: 1 }, eachTermAWord(terms))[0] ?? '', /<mark>heron<\/mark> w\d+.*…$/, 'goes on past it in the whole text');
  });

  it('ends a window that reaches the end of a cut text with an ellipsis, and only when told the text goes on', () => {
    const text = `${filler(40)} heron`;
    const [whole] = fragmentsOf(matchWords(text, { terms }));
    const [cut] = fragmentsOf(matchWords(text, { terms }), {}, undefined, true);
    assert.match(whole ?? '', /<mark>heron<\/mark>$/);
    assert.equal(cut, `${whole}…`);
  });

  it('keeps a text no longer than the limit whole, and cuts one without a space to nothing', () => {
    assert.equal(beginningOf('short text', 16_384), 'short text');
    assert.equal(beginningOf('x'.repeat(20), 10), '');
  });

  it('never gives fragments that differ from the whole text\'s (property)', () => {
    const seen = { trusted: 0, refused: 0 };
    const word = fc.constantFrom('heron', 'Égret', 'egrets', 'the', 'grey heron', 'ùn', 'a-b', '😀', 'heron, egret');
    // Matches with gaps of up to ~6,000 characters between them, so that windows and new words fall on both sides of a cut.
    const part = fc.record({ gap: fc.integer({ min: 0, max: 1500 }), word, separator: fc.constantFrom(' ', ', ', '\n', ' — ') });
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 16 }), fc.integer({ min: 200, max: 20_000 }), fc.integer({ min: 1, max: 4 }), (parts, cut, fragments) => {
        const text = parts.map(({ gap, word, separator }) => `${filler(gap)}${separator}${word}`).join(' ');
        const options = { fragments };
        const fromBeginning = fragmentsOfBeginning(matchWords(beginningOf(text, cut), { terms }), options, eachTermAWord(terms));
        if (fromBeginning === undefined) seen.refused++;
        else {
          seen.trusted++;
          assert.deepEqual(fromBeginning, fragmentsOf(matchWords(text, { terms }), options, eachTermAWord(terms)));
        }
      }),
      { numRuns: 300 },
    );
    assert.ok(seen.trusted > 0 && seen.refused > 0, JSON.stringify(seen));
  });

  it('gives the whole text\'s fragments when the whole text continues the beginning\'s source, in any script (property)', () => {
    const word = fc.constantFrom('heron', 'Égret', 'egrets', 'grey heron', '😀', 'heron, egret', '国际化', 'インストールする', '설치', '설치하기', 'Цапля', 'цапли', '。', '\n');
    const part = fc.record({ gap: fc.integer({ min: 0, max: 600 }), word, separator: fc.constantFrom(' ', ', ', '\n', '、') });
    const matchers = [{ terms }, { terms: new Set(['国际', '설치', 'цапля']) }, { terms: new Set(['egret']), prefixes: ['her', '설'] }];
    let continued = 0;
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 16 }), fc.integer({ min: 200, max: 8_000 }), fc.integer({ min: 1, max: 4 }), fc.nat(2), (parts, cut, fragments, which) => {
        const text = parts.map(({ gap, word, separator }) => `${filler(gap)}${separator}${word}`).join(' ');
        const matcher = matchers[which] ?? { terms };
        const options = { fragments };
        const beginning = matchWords(beginningOf(text, cut), matcher);
        fragmentsOfBeginning(beginning, options, eachTermAWord(matcher.terms));
        if (beginning.read > 0 && beginning.read < text.length) continued++;
        const whole = matchWords(text, matcher, beginning);
        assert.deepEqual(fragmentsOf(whole, options, eachTermAWord(matcher.terms)), fragmentsOf(matchWords(text, matcher), options, eachTermAWord(matcher.terms)));
        whole.scanTo(text.length);
        const fresh = matchWords(text, matcher);
        fresh.scanTo(text.length);
        assert.deepEqual(whole.found, fresh.found);
      }),
      { numRuns: 300 },
    );
    assert.ok(continued > 100, `${continued} sources continued`);
  });
});

describe('isSafeFragment', () => {
  it('accepts escaped text with <mark> and rejects any other markup or a bare ampersand', () => {
    assert.ok(isSafeFragment('a &lt;b&gt; <mark>c</mark> &amp; &quot;d&quot; &#39;'));
    for (const unsafe of ['<b>x</b>', '<mark onclick=x>y</mark>', '<script>', 'a & b', '&#x3C;', '"', '<mark', '&nbsp;']) {
      assert.equal(isSafeFragment(unsafe), false, unsafe);
    }
  });
});
