import { get } from '../../src/edge/test-support/edge-harness.js';

/**
 * Every surface a post shows on, as a reader meets it: the HTML page and its client-navigation data route at the front
 * and at the edge (for each build id named), the home page and the archive at both, search and autocomplete through
 * the front. `staleSurfaces` names those that do not yet show what the post now is.
 */
export interface PostState {
  oid: string;
  /** Undefined: the post is deleted. */
  title?: string;
  /** Text the post's page and data route must show (body words, an approved comment). */
  shows?: readonly string[];
  /** Text no surface may show any more (an old title, an old body word). */
  hides?: readonly string[];
  /** A word of the title search must find the post by. */
  searchWord?: string;
  /** Words search must no longer find the post by. */
  goneWords?: readonly string[];
  /** The start of the title autocomplete must offer (absent when deleted). */
  titlePrefix?: string;
  /** Title starts autocomplete must no longer offer for this post. */
  goneTitlePrefixes?: readonly string[];
}

export interface Layers {
  frontUrl: string;
  edgeUrl: string;
  /** The build id the front serves now. */
  buildId: string;
  /** Build ids served before (a reader's open tab keeps one); their data routes must never show the old post. */
  oldBuildIds?: readonly string[];
}

function dataRoute(buildId: string, oid: string): string {
  return `/_render/data/${buildId}/en-US/plog/${oid}.json`;
}

function showsState(body: string, state: PostState): boolean {
  return (state.shows ?? []).every((text) => body.includes(text)) && (state.hides ?? []).every((text) => !body.includes(text)) && (state.title === undefined || body.includes(state.title));
}

/** One surface and what counts as fresh on it. */
interface Surface {
  name: string;
  fresh(): Promise<boolean>;
}

export function surfacesOf(layers: Layers, state: PostState): Surface[] {
  const page = async (url: string): Promise<boolean> => {
    const answer = await get(url);
    if (state.title === undefined) return answer.status === 404 && (state.hides ?? []).every((text) => !answer.body.includes(text));
    return answer.status === 200 && showsState(answer.body, state);
  };
  // An old build's data route may answer 404 (the reader's tab then loads the page in full) but never the old post.
  const oldData = async (url: string): Promise<boolean> => {
    const answer = await get(url);
    return answer.status !== 200 || (state.title !== undefined && showsState(answer.body, state));
  };
  const listing = async (url: string): Promise<boolean> => {
    const answer = await get(url);
    if (answer.status !== 200) return false;
    const hides = state.hides ?? [];
    return state.title === undefined ? hides.every((text) => !answer.body.includes(text)) : answer.body.includes(state.title) && hides.every((text) => !answer.body.includes(text));
  };
  const surfaces: Surface[] = [];
  for (const [layer, base] of [['front', layers.frontUrl], ['edge', layers.edgeUrl]] as const) {
    surfaces.push({ name: `${layer} page`, fresh: () => page(`${base}/plog/${state.oid}`) });
    surfaces.push({ name: `${layer} data route`, fresh: () => page(`${base}${dataRoute(layers.buildId, state.oid)}`) });
    for (const old of layers.oldBuildIds ?? []) surfaces.push({ name: `${layer} data route of build ${old}`, fresh: () => oldData(`${base}${dataRoute(old, state.oid)}`) });
    surfaces.push({ name: `${layer} home`, fresh: () => listing(`${base}/`) });
    surfaces.push({ name: `${layer} archive`, fresh: () => listing(`${base}/plog`) });
  }
  const url = `/plog/${state.oid}`;
  const searchFinds = async (word: string) => {
    const answer = await get(`${layers.frontUrl}/api/v1/search?q=${encodeURIComponent(word)}&size=100`);
    if (answer.status !== 200) return undefined;
    return (JSON.parse(answer.body) as { documents: { url: string }[] }).documents.some((document) => document.url === url);
  };
  const autocompleteOffers = async (prefix: string) => {
    const answer = await get(`${layers.frontUrl}/api/search/autocomplete?q=${encodeURIComponent(prefix)}`);
    if (answer.status !== 200) return undefined;
    return (JSON.parse(answer.body) as { matches: { url: string; title: string }[] }).matches.some((match) => match.url === url && (state.title === undefined || match.title === state.title));
  };
  if (state.searchWord !== undefined) {
    const word = state.searchWord;
    surfaces.push({ name: `search for '${word}'`, fresh: async () => (await searchFinds(word)) === true });
  }
  for (const word of state.goneWords ?? []) surfaces.push({ name: `search for '${word}' (gone)`, fresh: async () => (await searchFinds(word)) === false });
  if (state.titlePrefix !== undefined) {
    const prefix = state.titlePrefix;
    surfaces.push({ name: `autocomplete '${prefix}'`, fresh: async () => (await autocompleteOffers(prefix)) === true });
  }
  for (const prefix of state.goneTitlePrefixes ?? []) {
    surfaces.push({ name: `autocomplete '${prefix}' (gone)`, fresh: async () => (await autocompleteOffers(prefix)) === false });
  }
  return surfaces;
}

/** The surfaces that do not show `state` yet. */
export async function staleSurfaces(layers: Layers, state: PostState): Promise<string[]> {
  const surfaces = surfacesOf(layers, state);
  const fresh = await Promise.all(surfaces.map((surface) => surface.fresh()));
  return surfaces.filter((_, i) => !fresh[i]).map((surface) => surface.name);
}

/** Polls until every surface shows `state`; resolves with the milliseconds it took, or rejects naming the stale ones. */
export async function untilFresh(layers: Layers, state: PostState, timeoutMs: number, since = performance.now()): Promise<number> {
  const deadline = since + timeoutMs;
  for (;;) {
    const stale = await staleSurfaces(layers, state);
    if (stale.length === 0) return performance.now() - since;
    if (performance.now() > deadline) throw new Error(`not fresh within ${timeoutMs} ms: ${stale.join('; ')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Requests every surface of the post (twice at the edge), so that every cache holds what it shows now. */
export async function warm(layers: Layers, state: PostState): Promise<void> {
  for (let round = 0; round < 2; round++) await staleSurfaces(layers, state);
}
