import type { Client, estypes } from '@elastic/elasticsearch';
import { ERRORS } from '../../../error-codes.js';
import type { Logger } from '../../../log.js';
import { queryTerms, queryWords, withoutWordBreaks, type QueryTerm, type StemLanguage } from '../../analysis/index.js';
import {
  DEFAULT_STEM_LOCALES,
  TERM_SUGGESTER,
  AUTOCOMPLETE_SORT,
  autocompletePrefix,
  autocompleteQuery,
  highlightRequest,
  indexDefinition,
  queryLanguages,
  rankedSearch,
  spliceSuggestions,
  textQuery,
  type IndexShape,
  type TextQueryOptions,
} from './schema.js';
import { HIT_SOURCE, storedDocument, toHit, totalOf, type StoredDocument } from './documents.js';
import type { ElasticsearchEngineOptions } from './options.js';
import { Cluster } from './cluster.js';
import { correctedText, formsProbe, heldCorrections, heldTitles, leftOut, optionsProbe, suggestEntries, titlesProbe, typoPlan, typoProbe, type TypoProbe } from './typos.js';
import { isResponseError, isStatus, missingResource, removedFrom, responseCause } from './errors.js';
import { MAX_ID_LENGTH, clampInteger, indexExists, indexNotFound, validIndexName, validateDocument } from '../validation.js';
import type { AliasAction, AutocompleteMatch, AutocompleteQuery, BulkItemResult, DeleteItemResult, Health, IndexInfo, IndexedDocument, QueryFilter, SearchEngine, SearchQuery, SearchResult, SuggestQuery, Suggestion } from '../types.js';

// The options live apart (options.ts); callers take them from the engine's module.
export { ELASTICSEARCH_ENGINE_DEFAULTS, elasticsearchOptionsFromUrl, type ElasticsearchEngineOptions } from './options.js';

/** Search totals are exact up to this many by default (see SearchQuery.totalUpTo), then `gte`. */
const TOTAL_HITS_LIMIT = 1000;

/** Deep pagination past this window is refused by the cluster (`index.max_result_window`). */
const MAX_RESULT_WINDOW = 10_000;

/** One request of a search or count: which words match their neighbours or are left out, and what it carries besides. */
interface Attempt extends Pick<TextQueryOptions, 'fuzzy' | 'dropped' | 'titles' | 'pinned'> {
  probe?: TypoProbe;
}

/**
 * The engine interface on the official Elasticsearch client, through cluster.ts. The client itself never retries (`maxRetries: 0`): the
 * engine retries transient failures with its own exponential backoff — a few times for writes, so an indexing run
 * rides out a busy or restarting cluster, at most `readRetries` times for reads, so the search API answers 503
 * `SEARCH_UNAVAILABLE` within about `readTimeoutMs` rather than hanging. Bulk items rejected with 429 are sent again
 * on their own, with the same backoff.
 */
export class ElasticsearchEngine implements SearchEngine {
  readonly #cluster: Cluster;
  readonly #client: Client;
  readonly #shape: IndexShape;
  readonly #logger: Logger | undefined;
  readonly #stemLocales: readonly string[];

  constructor(options: ElasticsearchEngineOptions) {
    this.#cluster = new Cluster(options);
    this.#client = this.#cluster.client;
    this.#shape = options.index ?? {};
    this.#stemLocales = options.stemLocales ?? DEFAULT_STEM_LOCALES;
    this.#logger = options.logger;
  }


  async health(): Promise<Health> {
    const health = await this.#cluster.call('read', 'health', (options) => this.#client.cluster.health({}, options)).catch((error: unknown) => {
      throw this.#cluster.unexpected(error, 'health');
    });
    const status = String(health.status).toLowerCase();
    return status === 'green' || status === 'yellow' ? status : 'red';
  }

  async createIndex(name: string): Promise<void> {
    if (!validIndexName(name)) throw ERRORS.INDEX_NAME_INVALID(name);
    try {
      await this.#cluster.call('write', 'create index', (options) =>
        this.#client.indices.create({ index: name, ...indexDefinition(this.#shape) }, options),
      );
    } catch (error) {
      if (isResponseError(error) && error.statusCode === 400) {
        const { type, reason } = responseCause(error);
        if (type === 'resource_already_exists_exception' || (type === 'invalid_index_name_exception' && /alias/.test(reason))) {
          throw indexExists(name);
        }
      }
      throw this.#cluster.unexpected(error, 'create index');
    }
  }

  /** Throws INDEX_NOT_FOUND unless `name` is an index (not an alias): a bulk call must never create one by accident. */
  async #requireIndex(name: string): Promise<void> {
    if (!validIndexName(name)) throw indexNotFound(name);
    try {
      const found = await this.#cluster.call('write', 'get index', (options) =>
        this.#client.indices.get({ index: name, filter_path: ['*.settings.index.provided_name'] }, options),
      );
      if (!Object.hasOwn(found, name)) throw indexNotFound(name);
    } catch (error) {
      if (isStatus(error, 404)) throw indexNotFound(name);
      throw this.#cluster.unexpected(error, 'get index');
    }
  }

  async bulk(index: string, documents: readonly IndexedDocument[]): Promise<BulkItemResult[]> {
    await this.#requireIndex(index);
    const results: BulkItemResult[] = documents.map((document) => {
      const problem = validateDocument(document);
      const id = typeof document?.id === 'string' ? document.id : String(document?.id);
      return problem === undefined ? { id, ok: true } : { id, ok: false, error: { type: 'invalid_document', reason: problem } };
    });
    const valid = results.flatMap((result, position) => (result.ok ? [position] : []));
    await this.#cluster.sendBulk(
      index,
      valid,
      (position) => {
        const document = documents[position] as IndexedDocument;
        return [{ index: { _index: index, _id: document.id } }, storedDocument(document)];
      },
      (position, outcome) => {
        const result = results[position] as BulkItemResult;
        results[position] =
          outcome?.error === undefined || outcome.error === null
            ? { id: result.id, ok: true }
            : { id: result.id, ok: false, error: { type: outcome.error.type, reason: outcome.error.reason ?? outcome.error.type } };
      },
    );
    return results;
  }

  /**
   * Deletes with `_bulk` delete actions: an id the index does not hold answers `not_found`, which is no error. Any
   * other failed item throws SEARCH_ENGINE_ERROR once the others are done; deleting again is harmless.
   */
  async deleteDocuments(index: string, ids: readonly string[]): Promise<DeleteItemResult[]> {
    await this.#requireIndex(index);
    const results: DeleteItemResult[] = ids.map((id) => ({ id, deleted: false }));
    // An id Elasticsearch cannot store (empty, or longer than its limit) is held by no index: it is not sent.
    const storable = ids.flatMap((id, position) => (typeof id === 'string' && id !== '' && Buffer.byteLength(id) <= MAX_ID_LENGTH ? [position] : []));
    const failures: string[] = [];
    await this.#cluster.sendBulk(
      index,
      storable,
      (position) => [{ delete: { _index: index, _id: ids[position] as string } }],
      (position, outcome) => {
        if (outcome?.error === undefined || outcome.error === null) {
          results[position] = { id: ids[position] as string, deleted: outcome?.result === 'deleted' };
        } else {
          failures.push(outcome.error.type);
        }
      },
    );
    if (failures.length > 0) {
      this.#logger?.error({ index, failed: failures.length, type: failures[0] }, 'search cluster refused document deletions');
      throw ERRORS.SEARCH_ENGINE_ERROR(`${failures.length} of ${ids.length} deletions`, failures[0] ?? '');
    }
    return results;
  }

  async refresh(index: string): Promise<void> {
    await this.#cluster.indexCall('write', 'refresh', index, (options) => this.#client.indices.refresh({ index }, options));
  }

  async updateAliases(actions: readonly AliasAction[]): Promise<void> {
    for (const action of actions) {
      const { alias } = 'add' in action ? action.add : action.remove;
      if (!validIndexName(alias)) throw ERRORS.INDEX_NAME_INVALID(alias);
    }
    const body = actions.map((action): estypes.IndicesUpdateAliasesAction =>
      'add' in action
        ? { add: { index: action.add.index, alias: action.add.alias } }
        : { remove: { index: action.remove.index, alias: action.remove.alias, must_exist: true } },
    );
    try {
      await this.#cluster.call('write', 'update aliases', (options) => this.#client.indices.updateAliases({ actions: body }, options));
    } catch (error) {
      if (isResponseError(error) && (error.statusCode === 404 || error.statusCode === 400)) {
        const { type, reason } = responseCause(error);
        if (type === 'index_not_found_exception') throw ERRORS.INDEX_NOT_FOUND.with({ cause: error }, missingResource(error) ?? reason);
        if (type === 'aliases_not_found_exception') throw ERRORS.ALIAS_NOT_FOUND.with({ cause: error }, missingResource(error) ?? reason, removedFrom(actions));
        throw ERRORS.ALIAS_UPDATE_REFUSED.with({ cause: error }, reason);
      }
      throw this.#cluster.unexpected(error, 'update aliases');
    }
  }

  async #listIndices(prefix: string): Promise<IndexInfo[]> {
    if (!/^[a-z0-9_-]*$/.test(prefix)) return [];
    const pattern = `${prefix}*`;
    const [rows, aliases] = await Promise.all([
      this.#cluster.call('read', 'cat indices', (options) =>
        this.#client.cat.indices({ index: pattern, format: 'json', h: ['index', 'docs.count'], s: ['index'], expand_wildcards: 'open' }, options),
      ),
      this.#cluster.call('read', 'get aliases', (options) =>
        this.#client.indices.getAlias({ index: pattern, expand_wildcards: 'open' }, options),
      ).catch((error: unknown) => {
        if (isStatus(error, 404)) return {} as estypes.IndicesGetAliasResponse;
        throw error;
      }),
    ]);
    return rows
      .filter((row) => typeof row.index === 'string' && row.index.startsWith(prefix))
      .map((row) => {
        const name = row.index as string;
        return {
          name,
          aliases: Object.keys(aliases[name]?.aliases ?? {}).sort(),
          docCount: Number(row['docs.count'] ?? 0),
        };
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async listIndices(prefix: string): Promise<IndexInfo[]> {
    try {
      return await this.#listIndices(prefix);
    } catch (error) {
      throw this.#cluster.unexpected(error, 'list indices');
    }
  }

  async deleteIndex(name: string): Promise<void> {
    // A wildcard or an alias here would delete other indices: only a valid concrete name reaches the cluster.
    if (!validIndexName(name)) throw indexNotFound(name);
    await this.#cluster.indexCall('write', 'delete index', name, (options) => this.#client.indices.delete({ index: name }, options));
  }

  async forceMerge(name: string): Promise<void> {
    await this.#cluster.indexCall('merge', 'force merge', name, (options) =>
      this.#client.indices.forcemerge({ index: name, max_num_segments: 1 }, options),
    );
  }

  #languages(query: Pick<QueryFilter, 'locales'>): StemLanguage[] {
    return queryLanguages(query.locales, this.#stemLocales);
  }

  /**
   * Typo results (SearchQuery.corrections), as the embedded engine gives them (see typos.ts). Elasticsearch
   * does not say which clause matched a word, so the engine learns before it widens: the search as typed carries each
   * word's document count and a term suggester in `popular` mode. Then a word held in a few documents only whose
   * neighbour is held far more often (joinsRareWord) also matches its spelling neighbours, below exact and stem matches,
   * and nothing is said to be corrected. When the query as typed finds nothing, a word the index does not hold matches
   * its neighbours if one lies within FUZZINESS (`corrected` names the nearest), and otherwise is left out while another
   * word remains, unless the index holds it in another form (stems, parts, completions; the widened search carries
   * that count and is sent again without leaving it out). A query whose words are all held and none rare costs one
   * request, a widened one two, one whose unknown word turns out to be held in another form three; when the widened
   * search finds nothing either, the answer is the first.
   */
  async search(query: SearchQuery): Promise<SearchResult> {
    const sort = query.sort ?? 'best';
    const size = clampInteger(query.size, 10, 1, 100);
    const from = clampInteger(query.from, 0, 0, MAX_RESULT_WINDOW - size);
    const highlight = query.highlight === undefined || query.highlight === false ? undefined : query.highlight === true ? {} : query.highlight;
    const typed = queryWords(query.text);
    const languages = this.#languages(query);
    const send = ({ probe, ...widened }: Attempt) =>
      this.#cluster.read('search', query.index, (options) =>
        this.#client.search<StoredDocument>(
          {
            index: query.index,
            ...rankedSearch(query, sort, { languages, ...widened }),
            size,
            from,
            track_total_hits: clampInteger(query.totalUpTo, TOTAL_HITS_LIMIT, 1, 10_000),
            _source: [...HIT_SOURCE],
            ...(highlight === undefined ? {} : { highlight: highlightRequest(clampInteger(highlight.fragments, 3, 1, 10), clampInteger(highlight.fragmentLength, 120, 20, 1000)) }),
            ...probe,
          },
          options,
        ),
      );
    const { response, corrected } = query.corrections === false || typed.length === 0 ? { response: await send({}) } : await this.#widened(typed, languages, query.locales, send);
    return {
      documents: response.hits.hits.map((hit) => toHit(hit, sort, highlight !== undefined)),
      total: totalOf(response),
      ...(corrected === undefined ? {} : { corrected }),
    };
  }

  /**
   * Sends a search (or count) as typed, carrying what tells how the index holds its words, then as typoPlan widens it
   * (see search): the response to answer with, and the text searched when a word was corrected or left out.
   */
  async #widened<R extends estypes.SearchResponse<unknown>>(
    typed: readonly QueryTerm[],
    languages: readonly StemLanguage[],
    locales: readonly string[] | undefined,
    send: (attempt: Attempt) => Promise<R>,
  ): Promise<{ response: R; corrected?: string }> {
    const first = await send({ probe: typoProbe(typed.map((word) => word.term), locales) });
    const found = totalOf(first).value > 0;
    const { fuzzy, options, unknown, titles: near, pinned, ...plan } = typoPlan(typed.map((word) => word.term), first, found, locales);
    if (fuzzy.size === 0 && unknown.size === 0 && near.size === 0 && pinned.size === 0) return { response: first };
    // With locales, a correction is the nearest neighbour their pages hold (see optionsProbe), a title word one their titles hold (see heldTitles).
    const named = locales !== undefined && locales.length > 0;
    const judged = named && options.size > 0 ? optionsProbe(options, locales).aggs : undefined;
    const forms = unknown.size === 0 ? undefined : formsProbe(typed, unknown, languages, locales, pinned).aggs;
    const titled = named && near.size > 0 ? titlesProbe(near, locales).aggs : undefined;
    let response = await send({ fuzzy, titles: near, pinned, dropped: unknown, ...(judged === undefined && forms === undefined && titled === undefined ? {} : { probe: { aggs: { ...judged, ...forms, ...titled } } }) });
    const corrections = judged === undefined ? plan.corrections : heldCorrections(options, response);
    const dropped = unknown.size === 0 ? unknown : leftOut(unknown, response, typed.length);
    const { titles, trimmed } = titled === undefined ? { titles: near, trimmed: false } : heldTitles(near, response);
    if (dropped.size !== unknown.size || trimmed) {
      // A word held in another form stays required, as typed: the search is sent again without leaving it out.
      if (fuzzy.size === 0 && titles.size === 0 && pinned.size === 0 && dropped.size === 0) return { response: first };
      response = await send({ fuzzy, titles, pinned, dropped });
    }
    if (!found && totalOf(response).value === 0) return { response: first };
    return { response, ...(corrections.size === 0 && dropped.size === 0 ? {} : { corrected: correctedText(typed, corrections, dropped) }) };
  }

  /** The documents a query matches, with corrections as `search` makes them (see there). */
  async count(query: QueryFilter): Promise<number> {
    return this.#count(query, true);
  }

  async #count(query: QueryFilter, corrections: boolean): Promise<number> {
    const languages = this.#languages(query);
    const typed = queryWords(query.text);
    if (!corrections || typed.length === 0) {
      const response = await this.#cluster.read('count', query.index, (options) => this.#client.count({ index: query.index, query: textQuery(query, { languages }) }, options));
      return response.count;
    }
    // A count that may widen is a search of no hits, which can carry what tells how the index holds the words.
    const send = ({ probe, ...widened }: Attempt) =>
      this.#cluster.read('count', query.index, (options) =>
        this.#client.search({ index: query.index, size: 0, track_total_hits: true, query: textQuery(query, { languages, ...widened }), ...probe }, options),
      );
    return totalOf((await this.#widened(typed, languages, query.locales, send)).response).value;
  }

  /**
   * "Did you mean": the term suggester proposes vocabulary words within two edits for each word the index lacks;
   * the candidates are spliced into the whole query, and each alternative is counted with its own `_count`.
   */
  async suggest(query: SuggestQuery): Promise<Suggestion[]> {
    const size = clampInteger(query.size, 3, 1, 10);
    const text = queryTerms(query.text).join(' ');
    const filter = {
      ...(query.locales === undefined ? {} : { locales: query.locales }),
      ...(query.slugPrefixes === undefined ? {} : { slugPrefixes: query.slugPrefixes }),
    };
    // Known words that match nothing together may hide a typo too: then every word's neighbours are candidates.
    const mode = text !== '' && (await this.#count({ index: query.index, text, ...filter }, false)) === 0 ? 'always' : 'missing';
    const response = await this.#cluster.read('suggest', query.index, (options) =>
      this.#client.search(
        {
          index: query.index,
          size: 0,
          track_total_hits: false,
          query: { match_none: {} },
          ...(text === '' ? {} : { suggest: { words: { text, term: { ...TERM_SUGGESTER, suggest_mode: mode } } } }),
        },
        options,
      ),
    );
    const entries = suggestEntries(response, 'words');
    const alternatives = spliceSuggestions(text, entries, size * 2);
    const counted = await Promise.all(
      alternatives.map(async (alternative) => ({
        text: alternative.text,
        total: await this.#count({ index: query.index, text: alternative.text, ...filter }, false),
        relation: 'eq' as const,
      })),
    );
    return counted.filter((suggestion) => suggestion.total > 0).slice(0, size);
  }

  async autocomplete(query: AutocompleteQuery): Promise<AutocompleteMatch[]> {
    const size = clampInteger(query.size, 10, 1, 100);
    const prefix = autocompletePrefix(query.prefix);
    const response = await this.#cluster.read('autocomplete', query.index, (options) =>
      this.#client.search<Pick<StoredDocument, 'title' | 'url' | 'locale'>>(
        {
          index: query.index,
          size,
          track_total_hits: false,
          query: prefix === '' ? { match_none: {} } : autocompleteQuery(prefix, query.locales),
          sort: [...AUTOCOMPLETE_SORT],
          _source: ['title', 'url', 'locale'],
        },
        options,
      ),
    );
    return response.hits.hits.flatMap((hit) =>
      hit._source === undefined ? [] : [{ title: withoutWordBreaks(hit._source.title), url: hit._source.url, locale: hit._source.locale }],
    );
  }

  async close(): Promise<void> {
    await this.#cluster.close();
  }
}
