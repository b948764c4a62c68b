/*
** sitestack's FTS5 ranking function, loaded into the embedded search engine's connections (with sitestack_doubles,
** below, and the highlighting functions of fragments.c).
**
**   sitestack_bm25(fts, weight0, weight1, ..., frequencies)
**
** is FTS5's bm25(fts, weight0, weight1, ...) with the number of documents holding each phrase of the query given by the
** caller: a BLOB of one native-endian IEEE double per phrase, in the order the phrases appear in the expression. bm25()
** counts them itself, once per statement, by running every phrase over the whole index (xQueryPhrase): for a query of a
** few words that count costs more than scoring the rows the statement returns, and the engine already knows each
** word's document count from its spelling statistics. A negative count, or a BLOB that does not hold one count per
** phrase (or a count that is not a finite number), has the phrase counted as bm25() counts it: a mismatch costs time,
** never a wrong or failed query.
**
** Everything else is bm25() as SQLite computes it: k1 = 1.2, b = 0.75, a phrase's frequency in a row is the sum of the
** weights of the columns of its instances, the row's length is its token count in every column, the average length and
** the row count are FTS5's own.
*/
#include <math.h>
#include <string.h>
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1
#include "fragments.h"

typedef struct RankData {
  int phrases;
  double averageLength;
  double *idf;
  double *frequency;
} RankData;

static int countRow(const Fts5ExtensionApi *api, Fts5Context *fts, void *count) {
  (void)api;
  (void)fts;
  (*(sqlite3_int64 *)count)++;
  return SQLITE_OK;
}

static int rankDataOf(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_value *given, RankData **out) {
  RankData *data = (RankData *)api->xGetAuxdata(fts, 0);
  if (data != 0) {
    *out = data;
    return SQLITE_OK;
  }
  int phrases = api->xPhraseCount(fts);
  int counted = sqlite3_value_type(given) == SQLITE_BLOB && sqlite3_value_bytes(given) == phrases * (int)sizeof(double);
  data = (RankData *)sqlite3_malloc64(sizeof(RankData) + (sqlite3_uint64)phrases * 2 * sizeof(double));
  if (data == 0) return SQLITE_NOMEM;
  data->phrases = phrases;
  data->idf = (double *)&data[1];
  data->frequency = &data->idf[phrases];
  sqlite3_int64 rows = 0;
  sqlite3_int64 tokens = 0;
  int rc = api->xRowCount(fts, &rows);
  if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
  if (rc != SQLITE_OK) {
    sqlite3_free(data);
    return rc;
  }
  data->averageLength = rows > 0 ? (double)tokens / (double)rows : 1.0;
  const unsigned char *bytes = counted ? (const unsigned char *)sqlite3_value_blob(given) : 0;
  for (int i = 0; i < phrases; i++) {
    double hits = -1.0;
    if (bytes != 0) memcpy(&hits, bytes + i * sizeof(double), sizeof(double));
    if (!(hits >= 0.0 && isfinite(hits))) {
      sqlite3_int64 found = 0;
      rc = api->xQueryPhrase(fts, i, &found, countRow);
      if (rc != SQLITE_OK) {
        sqlite3_free(data);
        return rc;
      }
      hits = (double)found;
    }
    /* As bm25(): log((N - n + 0.5) / (n + 0.5)), and 1e-6 for phrases in over half of the rows (or said to be in more
       rows than there are: the logarithm of a negative number is not a number). */
    double idf = log(((double)rows - hits + 0.5) / (hits + 0.5));
    data->idf[i] = idf > 0.0 ? idf : 1e-6;
  }
  rc = api->xSetAuxdata(fts, data, sqlite3_free);
  if (rc != SQLITE_OK) return rc;
  *out = data;
  return SQLITE_OK;
}

static void sitestackBm25(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context, int argc, sqlite3_value **argv) {
  const double k1 = 1.2;
  const double b = 0.75;
  if (argc < 1) {
    sqlite3_result_error(context, "sitestack_bm25: the phrase frequencies are missing", -1);
    return;
  }
  RankData *data = 0;
  int rc = rankDataOf(api, fts, argv[argc - 1], &data);
  int weights = argc - 1;
  int instances = 0;
  if (rc == SQLITE_OK) {
    memset(data->frequency, 0, sizeof(double) * (size_t)data->phrases);
    rc = api->xInstCount(fts, &instances);
  }
  for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
    int phrase, column, offset;
    rc = api->xInst(fts, i, &phrase, &column, &offset);
    if (rc == SQLITE_OK) data->frequency[phrase] += column < weights ? sqlite3_value_double(argv[column]) : 1.0;
  }
  int length = 0;
  if (rc == SQLITE_OK) rc = api->xColumnSize(fts, -1, &length);
  if (rc != SQLITE_OK) {
    sqlite3_result_error_code(context, rc);
    return;
  }
  double score = 0.0;
  for (int i = 0; i < data->phrases; i++) {
    double f = data->frequency[i];
    score += data->idf[i] * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + b * (double)length / data->averageLength)));
  }
  sqlite3_result_double(context, -1.0 * score);
}

/*
**   sitestack_doubles(x1, x2, ...)   (an aggregate)
**
** Every argument of every row, in the order the rows come, as one BLOB of native-endian IEEE doubles (an empty BLOB
** for no row): a walk's candidates reach JS as one value instead of one array per row, which better-sqlite3 builds
** from C++ one element at a time through V8's slow paths.
*/
typedef struct Doubles {
  double *values;
  sqlite3_int64 count;
  sqlite3_int64 capacity;
} Doubles;

static void doublesStep(sqlite3_context *context, int argc, sqlite3_value **argv) {
  Doubles *doubles = (Doubles *)sqlite3_aggregate_context(context, sizeof(Doubles));
  if (doubles == 0) {
    sqlite3_result_error_nomem(context);
    return;
  }
  if (doubles->count + argc > doubles->capacity) {
    sqlite3_int64 capacity = doubles->capacity == 0 ? 256 : doubles->capacity * 2;
    while (capacity < doubles->count + argc) capacity *= 2;
    double *grown = sqlite3_realloc64(doubles->values, (sqlite3_uint64)capacity * sizeof(double));
    if (grown == 0) {
      sqlite3_result_error_nomem(context);
      return;
    }
    doubles->values = grown;
    doubles->capacity = capacity;
  }
  for (int i = 0; i < argc; i++) doubles->values[doubles->count++] = sqlite3_value_double(argv[i]);
}

static void doublesFinal(sqlite3_context *context) {
  Doubles *doubles = (Doubles *)sqlite3_aggregate_context(context, 0);
  if (doubles == 0 || doubles->count == 0) {
    sqlite3_result_zeroblob(context, 0);
  } else {
    sqlite3_result_blob64(context, doubles->values, (sqlite3_uint64)doubles->count * sizeof(double), sqlite3_free);
    doubles->values = 0;
  }
  if (doubles != 0) sqlite3_free(doubles->values);
}

static fts5_api *fts5ApiOf(sqlite3 *db) {
  fts5_api *api = 0;
  sqlite3_stmt *statement = 0;
  if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0) == SQLITE_OK) {
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", 0);
    sqlite3_step(statement);
  }
  sqlite3_finalize(statement);
  return api;
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_sitestackfts_init(sqlite3 *db, char **error, const sqlite3_api_routines *routines) {
  SQLITE_EXTENSION_INIT2(routines);
  fts5_api *api = fts5ApiOf(db);
  if (api == 0 || api->iVersion < 2) {
    *error = sqlite3_mprintf("sitestack_bm25 needs FTS5");
    return SQLITE_ERROR;
  }
  int status = api->xCreateFunction(api, "sitestack_bm25", 0, sitestackBm25, 0);
  if (status == SQLITE_OK) {
    status = sqlite3_create_function_v2(db, "sitestack_doubles", -1, SQLITE_UTF8 | SQLITE_INNOCUOUS, 0, 0, doublesStep, doublesFinal, 0);
  }
  return status == SQLITE_OK ? sitestackRegisterFragments(db) : status;
}
