/*
** Body fragments and marked titles for search highlighting, in C (sitestack_marked is at the end):
**
**   sitestack_fragments(body, limit, terms, prefixes, stop_when_shown, fragments, length, new_words_within)
**
** answers what src/search/highlight.ts answers for fragmentsOf(matchWords(body, { terms, prefixes }), { fragments,
** length }, stop_when_shown ? terms : undefined): the fragments joined by U+0001 (empty text for none), the same
** characters for the same input. Its tests hold it to that over random texts.
**
** It reads only text whose characters are all below U+0250 and fold and lower-case to one character each (see
** latin-tables.h); for any other text it answers NULL and the caller highlights in JS. In JS the body is decoded
** into a string, folded a chunk at a time and searched; here the UTF-8 is read once, word by word, as far as the
** fragments need, and only the fragments become JS strings.
**
** `body` is TEXT or BLOB (UTF-8), read up to `limit` bytes. A longer body is read as its beginning, possibly cut inside
** a character: up to its last white space, and the answer is NULL whenever the fragments could depend on what follows
** (a word, a window or a match looked for past that point); the caller then highlights the whole body in JS.
** `terms` and `prefixes` are folded words joined by U+0001.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT3
#include "fragments.h"
#include "latin-tables.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define SEPARATOR 0x01
#define TERM_START 1
#define PREFIX_START 2
#define ANYWHERE INT_MAX

typedef struct Word {
  unsigned short *units;
  int length;
} Word;

typedef struct Words {
  Word *items;
  int count;
  /* The buffer every item points into. */
  unsigned short *units;
} Words;

typedef struct Range {
  int start;
  int end;
} Range;

typedef struct Text {
  const unsigned short *units;
  int length;
  /* The text is the beginning of a longer one: reaching its end means the answer is unknown. */
  int beginning;
  /* Something was looked for at or past the end of a beginning. */
  int unsettled;
  const Words *terms;
  const Words *prefixes;
  /* Per folded unit (modulo 256): which kinds of words start with it, so most text words are ruled out at once. */
  unsigned char starts[256];
  Range *found;
  int foundCount;
  int foundCapacity;
  /* Words are read up to here. */
  int scanned;
  /* The last word read was marked: the last range may still grow. */
  int open;
  int failed;
} Text;

/* UTF-8 to UTF-16 code units, as JS strings hold them. Returns the unit count, or -1 for malformed input. */
static int decodeAny(const unsigned char *bytes, int size, unsigned short *out) {
  int count = 0;
  for (int at = 0; at < size;) {
    unsigned int byte = bytes[at], code, extra;
    if (byte < 0x80) { code = byte; extra = 0; }
    else if ((byte & 0xe0) == 0xc0) { code = byte & 0x1f; extra = 1; }
    else if ((byte & 0xf0) == 0xe0) { code = byte & 0x0f; extra = 2; }
    else if ((byte & 0xf8) == 0xf0) { code = byte & 0x07; extra = 3; }
    else return -1;
    if (extra > 0 && at + (int)extra >= size) return -1;
    for (unsigned int i = 1; i <= extra; i++) {
      if ((bytes[at + i] & 0xc0) != 0x80) return -1;
      code = (code << 6) | (bytes[at + i] & 0x3f);
    }
    at += 1 + extra;
    if (code >= 0x10000) {
      code -= 0x10000;
      out[count++] = (unsigned short)(0xd800 + (code >> 10));
      out[count++] = (unsigned short)(0xdc00 + (code & 0x3ff));
    } else out[count++] = (unsigned short)code;
  }
  return count;
}

/* Folded words joined by SEPARATOR, each as UTF-16 units; duplicates dropped (JS holds them in a Set). */
static int wordsOf(sqlite3_value *value, Words *words) {
  const unsigned char *bytes = sqlite3_value_text(value);
  int size = sqlite3_value_bytes(value);
  memset(words, 0, sizeof(*words));
  if (bytes == 0 || size == 0) return SQLITE_OK;
  words->units = sqlite3_malloc64((sqlite3_uint64)size * sizeof(unsigned short) + 2);
  words->items = sqlite3_malloc64(((sqlite3_uint64)size + 1) * sizeof(Word));
  if (words->units == 0 || words->items == 0) return SQLITE_NOMEM;
  int length = decodeAny(bytes, size, words->units);
  if (length < 0) return SQLITE_MISMATCH;
  int start = 0;
  for (int at = 0; at <= length; at++) {
    if (at < length && words->units[at] != SEPARATOR) continue;
    Word word = { words->units + start, at - start };
    int duplicate = 0;
    for (int i = 0; i < words->count && !duplicate; i++) {
      duplicate = words->items[i].length == word.length && memcmp(words->items[i].units, word.units, word.length * sizeof(unsigned short)) == 0;
    }
    if (!duplicate) words->items[words->count++] = word;
    start = at + 1;
  }
  return SQLITE_OK;
}

static void freeWords(Words *words) {
  sqlite3_free(words->units);
  sqlite3_free(words->items);
}

/*
** The body as UTF-16 units, all of them below LATIN_LIMIT and folding and lower-casing to one unit. Returns the unit
** count, -1 when the text is not of that kind. A beginning ends before its last white space (-1 without one), and a
** character cut at its end is dropped.
*/
static int decodeLatin(const unsigned char *bytes, int size, int beginning, unsigned short *out) {
  int count = 0;
  for (int at = 0; at < size;) {
    /* Most of a Latin text is ASCII, which always folds and lower-cases to one character: 16 or 8 bytes at a time. */
#if defined(__SSE2__)
    for (const __m128i zero = _mm_setzero_si128(); at + 16 <= size; at += 16, count += 16) {
      __m128i sixteen = _mm_loadu_si128((const __m128i *)(bytes + at));
      if (_mm_movemask_epi8(sixteen) != 0) break;
      _mm_storeu_si128((__m128i *)(out + count), _mm_unpacklo_epi8(sixteen, zero));
      _mm_storeu_si128((__m128i *)(out + count + 8), _mm_unpackhi_epi8(sixteen, zero));
    }
#endif
    for (sqlite3_uint64 eight; at + 8 <= size; at += 8, count += 8) {
      memcpy(&eight, bytes + at, 8);
      if (eight & 0x8080808080808080ULL) break;
      for (int i = 0; i < 8; i++) out[count + i] = bytes[at + i];
    }
    while (at < size && bytes[at] < 0x80) out[count++] = bytes[at++];
    if (at == size) break;
    unsigned int byte = bytes[at];
    if ((byte & 0xe0) == 0xc0 && byte >= 0xc2) {
      if (at + 1 >= size) {
        if (beginning) break;
        return -1;
      }
      if ((bytes[at + 1] & 0xc0) != 0x80) return -1;
      unsigned int code = ((byte & 0x1f) << 6) | (bytes[at + 1] & 0x3f);
      if (code >= LATIN_LIMIT || !(LATIN_CLASS[code] & LATIN_READABLE)) return -1;
      out[count++] = (unsigned short)code;
      at += 2;
    } else if (beginning && byte >= 0xe0 && at + 3 >= size) {
      /* A longer character cut at the end of a beginning: the text beyond LATIN_LIMIT is found below if it goes on. */
      break;
    } else return -1;
  }
  if (!beginning) return count;
  while (count > 0 && !(LATIN_CLASS[out[count - 1]] & LATIN_SPACE)) count--;
  return count > 0 ? count - 1 : -1;
}

static int isWord(unsigned short unit) {
  return LATIN_CLASS[unit] & LATIN_WORD;
}

static int isSpace(unsigned short unit) {
  return LATIN_CLASS[unit] & LATIN_SPACE;
}

/* Whether the folded word [start, end) is `word` (prefix: starts with it). An empty word matches nothing. */
static int foldedEquals(const Text *text, int start, int end, const Word *word, int prefix) {
  int length = end - start;
  if (word->length == 0 || (prefix ? length < word->length : length != word->length)) return 0;
  for (int i = 0; i < word->length; i++) {
    if (LATIN_FOLD[text->units[start + i]] != word->units[i]) return 0;
  }
  return 1;
}

static int marked(const Text *text, int start, int end) {
  unsigned char starts = text->starts[LATIN_FOLD[text->units[start]] & 0xff];
  if (starts & TERM_START) {
    for (int i = 0; i < text->terms->count; i++) {
      if (foldedEquals(text, start, end, &text->terms->items[i], 0)) return 1;
    }
  }
  if (starts & PREFIX_START) {
    for (int i = 0; i < text->prefixes->count; i++) {
      if (foldedEquals(text, start, end, &text->prefixes->items[i], 1)) return 1;
    }
  }
  return 0;
}

static void noteStarts(Text *text, const Words *words, unsigned char kind) {
  for (int i = 0; i < words->count; i++) {
    if (words->items[i].length > 0) text->starts[words->items[i].units[0] & 0xff] |= kind;
  }
}

/* Reads the next word; 0 at the end of the text (of a beginning: the answer is then unknown). */
static int readWord(Text *text) {
  const unsigned short *units = text->units;
  const int length = text->length;
  int start = text->scanned;
  while (start < length && !isWord(units[start])) start++;
  if (start == length) {
    text->scanned = start;
    if (text->beginning) text->unsettled = 1;
    return 0;
  }
  int end = start + 1;
  while (end < length && isWord(units[end])) end++;
  /* A beginning ends before white space: a word that reaches its end ends there in the whole text too. */
  text->scanned = end;
  int hit = marked(text, start, end);
  if (hit && text->open) text->found[text->foundCount - 1].end = end;
  else if (hit) {
    if (text->foundCount == text->foundCapacity) {
      int capacity = text->foundCapacity == 0 ? 16 : text->foundCapacity * 2;
      Range *grown = sqlite3_realloc64(text->found, (sqlite3_uint64)capacity * sizeof(Range));
      if (grown == 0) {
        text->failed = 1;
        return 0;
      }
      text->found = grown;
      text->foundCapacity = capacity;
    }
    text->found[text->foundCount++] = (Range){ start, end };
  }
  text->open = hit;
  return 1;
}

/* The i-th match once final, if it starts before `before` (MatchSource.at; ANYWHERE: to the end of the whole text). */
static const Range *matchAt(Text *text, int i, int before) {
  for (;;) {
    if (text->foundCount > i) {
      if (i < text->foundCount - 1 || !text->open) break;
    } else if (text->scanned >= before) break;
    if (!readWord(text)) break;
  }
  return i < text->foundCount && text->found[i].start < before ? &text->found[i] : 0;
}

/* Makes every match starting before `position` final (MatchSource.scanTo). */
static void scanTo(Text *text, int position) {
  while ((text->scanned < position || text->open) && readWord(text)) {}
}

/* highlight.ts boundary(): a cut near `index` on a space within `slack`. */
static int boundary(Text *text, int index, int direction, int slack) {
  if (index <= 0) return 0;
  if (index >= text->length) {
    text->unsettled |= text->beginning;
    return text->length;
  }
  for (int step = 0; step <= slack; step++) {
    int at = index + direction * step;
    if (at <= 0) return 0;
    if (at >= text->length) {
      text->unsettled |= text->beginning;
      return text->length;
    }
    if (isSpace(text->units[at])) return direction == 1 ? at : at + 1;
  }
  return index;
}

typedef struct Output {
  char *bytes;
  sqlite3_int64 length;
  sqlite3_int64 capacity;
  int failed;
} Output;

/* Room for `length` more bytes; 0 when memory ran out. */
static int reserve(Output *out, sqlite3_int64 length) {
  if (out->failed) return 0;
  if (out->length + length <= out->capacity) return 1;
  sqlite3_int64 capacity = out->capacity == 0 ? 1024 : out->capacity;
  while (capacity < out->length + length) capacity *= 2;
  char *grown = sqlite3_realloc64(out->bytes, (sqlite3_uint64)capacity);
  if (grown == 0) {
    out->failed = 1;
    return 0;
  }
  out->bytes = grown;
  out->capacity = capacity;
  return 1;
}

static void put(Output *out, const char *bytes, int length) {
  if (!reserve(out, length)) return;
  memcpy(out->bytes + out->length, bytes, length);
  out->length += length;
}

/* escapeHtml() of text [start, end), as UTF-8. */
static void putEscaped(Output *out, const unsigned short *units, int start, int end) {
  /* "&quot;" is the longest a character becomes. */
  if (!reserve(out, (sqlite3_int64)(end - start) * 6)) return;
  char *to = out->bytes + out->length;
  for (int at = start; at < end; at++) {
    unsigned short unit = units[at];
    switch (unit) {
      case '&': memcpy(to, "&amp;", 5); to += 5; break;
      case '<': memcpy(to, "&lt;", 4); to += 4; break;
      case '>': memcpy(to, "&gt;", 4); to += 4; break;
      case '"': memcpy(to, "&quot;", 6); to += 6; break;
      case '\'': memcpy(to, "&#39;", 5); to += 5; break;
      default:
        if (unit < 0x80) *to++ = (char)unit;
        else {
          *to++ = (char)(0xc0 | (unit >> 6));
          *to++ = (char)(0x80 | (unit & 0x3f));
        }
    }
  }
  out->length = to - out->bytes;
}

static const char ELLIPSIS[] = "\xe2\x80\xa6";

/* highlight.ts render(). */
static void render(Output *out, const Text *text, int start, int end) {
  if (start > 0) put(out, ELLIPSIS, 3);
  int at = start;
  for (int i = 0; i < text->foundCount; i++) {
    const Range *match = &text->found[i];
    if (match->end <= start || match->start >= end) continue;
    int from = match->start > start ? match->start : start;
    int to = match->end < end ? match->end : end;
    putEscaped(out, text->units, at, from);
    put(out, "<mark>", 6);
    putEscaped(out, text->units, from, to);
    put(out, "</mark>", 7);
    at = to;
  }
  int tail = end;
  while (tail > at && isSpace(text->units[tail - 1])) tail--;
  putEscaped(out, text->units, at, tail);
  if (end < text->length) put(out, ELLIPSIS, 3);
}

static int sameLowered(const Text *text, const Range *a, const Range *b) {
  if (a->end - a->start != b->end - b->start) return 0;
  for (int i = 0; i < a->end - a->start; i++) {
    if (LATIN_LOWER[text->units[a->start + i]] != LATIN_LOWER[text->units[b->start + i]]) return 0;
  }
  return 1;
}

typedef struct Selection {
  Range windows[16];
  int count;
  /* Matches shown in a window (compared lower-cased). */
  Range *shown;
  int shownCount;
  int shownCapacity;
  /* The first pass stops once a word of every term is shown (highlight.ts allShown). */
  int stopWhenShown;
  /* Per term: a word of it is shown. */
  unsigned char *termShown;
} Selection;

static int covered(const Selection *selection, int position) {
  for (int i = 0; i < selection->count; i++) {
    if (position >= selection->windows[i].start && position < selection->windows[i].end) return 1;
  }
  return 0;
}

static int wasShown(const Text *text, const Selection *selection, const Range *match) {
  for (int i = 0; i < selection->shownCount; i++) {
    if (sameLowered(text, &selection->shown[i], match)) return 1;
  }
  return 0;
}

/* highlight.ts fragmentWindows() place(). */
static void place(Text *text, Selection *selection, const Range *match, int length, int lead, int slack) {
  int start = boundary(text, match->start - lead, -1, slack);
  int end = boundary(text, start + length, 1, slack);
  if (match->end > end) end = match->end;
  int previous = 0, next = text->length;
  for (int i = 0; i < selection->count; i++) {
    if (selection->windows[i].end <= match->start && selection->windows[i].end > previous) previous = selection->windows[i].end;
    if (selection->windows[i].start >= match->end && selection->windows[i].start < next) next = selection->windows[i].start;
  }
  Range window = { start > previous ? start : previous, end < next ? end : next };
  selection->windows[selection->count++] = window;
  scanTo(text, window.end);
  for (int i = 0; i < text->foundCount; i++) {
    const Range *found = &text->found[i];
    if (found->start < window.start || found->end > window.end) continue;
    if (!wasShown(text, selection, found)) {
      if (selection->shownCount == selection->shownCapacity) {
        int capacity = selection->shownCapacity == 0 ? 16 : selection->shownCapacity * 2;
        Range *grown = sqlite3_realloc64(selection->shown, (sqlite3_uint64)capacity * sizeof(Range));
        if (grown == 0) {
          text->failed = 1;
          return;
        }
        selection->shown = grown;
        selection->shownCapacity = capacity;
      }
      selection->shown[selection->shownCount++] = *found;
    }
    if (selection->termShown == 0) continue;
    for (int at = found->start; at < found->end;) {
      while (at < found->end && !isWord(text->units[at])) at++;
      int wordEnd = at;
      while (wordEnd < found->end && isWord(text->units[wordEnd])) wordEnd++;
      for (int t = 0; t < text->terms->count && at < wordEnd; t++) {
        if (foldedEquals(text, at, wordEnd, &text->terms->items[t], 0)) selection->termShown[t] = 1;
      }
      at = wordEnd;
    }
  }
}

static int allShown(const Text *text, const Selection *selection) {
  if (!selection->stopWhenShown) return 0;
  for (int t = 0; t < text->terms->count; t++) {
    if (!selection->termShown[t]) return 0;
  }
  return 1;
}

static int byStart(const void *a, const void *b) {
  return ((const Range *)a)->start - ((const Range *)b)->start;
}

/*
** What both functions read first: the text (its first `size` bytes; a beginning when `beginning`), the terms and the
** prefixes. Answers 1 when `text` is ready; otherwise 0, with the answer put in `context` already (an error, or NULL
** for a text left to JS). Either way, tearDown() frees what it took.
*/
static int setUp(sqlite3_context *context, const char *name, const unsigned char *bytes, int size, int beginning, sqlite3_value *termsValue, sqlite3_value *prefixesValue, Text *text, Words *terms, Words *prefixes) {
  memset(text, 0, sizeof(*text));
  int termsStatus = wordsOf(termsValue, terms);
  int prefixesStatus = wordsOf(prefixesValue, prefixes);
  unsigned short *units = sqlite3_malloc64((sqlite3_uint64)size * sizeof(unsigned short));
  text->units = units;
  if (units == 0 || termsStatus == SQLITE_NOMEM || prefixesStatus == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(context);
    return 0;
  }
  if (termsStatus != SQLITE_OK || prefixesStatus != SQLITE_OK) {
    char *message = sqlite3_mprintf("%s: terms and prefixes must be UTF-8 text", name);
    sqlite3_result_error(context, message == 0 ? "terms and prefixes must be UTF-8 text" : message, -1);
    sqlite3_free(message);
    return 0;
  }
  text->length = decodeLatin(bytes, size, beginning, units);
  if (text->length < 0) {
    sqlite3_result_null(context);
    return 0;
  }
  text->beginning = beginning;
  text->terms = terms;
  text->prefixes = prefixes;
  noteStarts(text, terms, TERM_START);
  noteStarts(text, prefixes, PREFIX_START);
  return 1;
}

static void tearDown(Text *text, Words *terms, Words *prefixes) {
  sqlite3_free(text->found);
  sqlite3_free((void *)text->units);
  freeWords(terms);
  freeWords(prefixes);
}

/* Puts `out` as the function's answer (it then belongs to SQLite), or the error that stopped it. */
static void answer(sqlite3_context *context, const Text *text, Output *out) {
  if (text->failed || out->failed) sqlite3_result_error_nomem(context);
  else if (out->length == 0) sqlite3_result_text(context, "", 0, SQLITE_STATIC);
  else {
    sqlite3_result_text64(context, out->bytes, (sqlite3_uint64)out->length, sqlite3_free, SQLITE_UTF8);
    out->bytes = 0;
  }
}

static void sitestackFragments(sqlite3_context *context, int argc, sqlite3_value **argv) {
  (void)argc;
  sqlite3_int64 limit = sqlite3_value_int64(argv[1]);
  int stopWhenShown = sqlite3_value_int(argv[4]) != 0;
  int count = sqlite3_value_int(argv[5]);
  int length = sqlite3_value_int(argv[6]);
  int newWordsWithin = sqlite3_value_int(argv[7]);
  if (count < 0 || count > (int)(sizeof(((Selection *)0)->windows) / sizeof(Range)) || length < 20) {
    sqlite3_result_error(context, "sitestack_fragments: fragments must be 0-16 and length at least 20", -1);
    return;
  }
  const unsigned char *bytes = sqlite3_value_blob(argv[0]);
  int size = sqlite3_value_bytes(argv[0]);
  int beginning = size > limit;
  if (beginning) size = limit < 0 ? 0 : (int)limit;
  if (bytes == 0 || size == 0) {
    if (beginning) sqlite3_result_null(context);
    else sqlite3_result_text(context, "", 0, SQLITE_STATIC);
    return;
  }
  Words terms, prefixes;
  Text text;
  Selection selection = { 0 };
  Output out = { 0 };
  if (!setUp(context, "sitestack_fragments", bytes, size, beginning, argv[2], argv[3], &text, &terms, &prefixes)) goto done;
  selection.stopWhenShown = stopWhenShown;
  if (stopWhenShown && terms.count > 0) {
    selection.termShown = sqlite3_malloc64(terms.count);
    if (selection.termShown == 0) {
      sqlite3_result_error_nomem(context);
      goto done;
    }
    memset(selection.termShown, 0, terms.count);
  }
  int lead = length / 4, slack = length / 6;
  if (count > 0 && matchAt(&text, 0, ANYWHERE) != 0) {
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; selection.count < count && !text.failed; i++) {
        if (pass == 0 && allShown(&text, &selection)) break;
        const Range *match = matchAt(&text, i, pass == 0 ? newWordsWithin : ANYWHERE);
        if (match == 0) break;
        Range current = *match;
        if (covered(&selection, current.start)) continue;
        if (pass == 0 && wasShown(&text, &selection, &current)) continue;
        place(&text, &selection, &current, length, lead, slack);
      }
    }
  }
  qsort(selection.windows, selection.count, sizeof(Range), byStart);
  for (int i = 0; i < selection.count; i++) {
    if (selection.windows[i].end >= text.length) text.unsettled |= text.beginning;
  }
  /* When memory ran out, answer() reports it. */
  if (text.unsettled && !text.failed) {
    sqlite3_result_null(context);
    goto done;
  }
  for (int i = 0; i < selection.count && !text.failed; i++) {
    if (i > 0) put(&out, "\x01", 1);
    render(&out, &text, selection.windows[i].start, selection.windows[i].end);
  }
  answer(context, &text, &out);
done:
  sqlite3_free(out.bytes);
  sqlite3_free(selection.shown);
  sqlite3_free(selection.termShown);
  tearDown(&text, &terms, &prefixes);
}

/*
**   sitestack_marked(text, terms, prefixes)
**
** answers what highlight.ts answers for titleOf(matchWords(text, { terms, prefixes })): the whole text marked, or
** empty text when no word of it is marked; NULL for text it leaves to JS (as sitestack_fragments).
*/
static void sitestackMarked(sqlite3_context *context, int argc, sqlite3_value **argv) {
  (void)argc;
  const unsigned char *bytes = sqlite3_value_blob(argv[0]);
  int size = sqlite3_value_bytes(argv[0]);
  if (bytes == 0 || size == 0) {
    sqlite3_result_text(context, "", 0, SQLITE_STATIC);
    return;
  }
  Words terms, prefixes;
  Text text;
  Output out = { 0 };
  if (setUp(context, "sitestack_marked", bytes, size, 0, argv[1], argv[2], &text, &terms, &prefixes)) {
    scanTo(&text, text.length);
    if (text.foundCount > 0) render(&out, &text, 0, text.length);
    answer(context, &text, &out);
  }
  sqlite3_free(out.bytes);
  tearDown(&text, &terms, &prefixes);
}

int sitestackRegisterFragments(sqlite3 *db) {
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int status = sqlite3_create_function_v2(db, "sitestack_fragments", 8, flags, 0, sitestackFragments, 0, 0, 0);
  return status == SQLITE_OK ? sqlite3_create_function_v2(db, "sitestack_marked", 3, flags, 0, sitestackMarked, 0, 0, 0) : status;
}
