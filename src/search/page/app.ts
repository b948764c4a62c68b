/**
 * The search page's behaviour in the browser. It reads `location.search`, adds the page's locale when the query names
 * none, calls `/api/v1/search`, and renders the answer with DOM nodes only — highlight fragments are rebuilt from text
 * parts, never assigned as HTML. New queries push a history entry; back and forward restore the query of the entry.
 * Elements are looked up at each render and events are delegated, so a page re-rendered by the renderer's client
 * (client navigation back to the search page) keeps working. A corrected answer (`metadata.corrected`) shows "Showing
 * results for <corrected> — search instead for <query>" where "did you mean" goes (the API sends no suggestions
 * then), so the markup, which the page cache keeps, needs no new element: the second link asks `exact=1`.
 */
import { fragmentParts } from './fragment-nodes.js';
import { endBurst, openedResult, searched } from './insights-client.js';

interface Hit {
  url: string;
  title: string;
  locale: string;
  summary: string;
  highlight: { title: string[]; body: string[] };
}

interface Answer {
  documents: Hit[];
  metadata: { took_ms: number; total: { value: number; relation: 'eq' | 'gte' }; size: number; page: number; corrected?: string };
  suggestions: { text: string; total: number; relation?: 'eq' | 'gte' }[];
}

const MAX_PAGE = 10;
const ROOT_ID = 'search-app';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function byId<T extends HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  // The page's own markup holds every id this script asks for: a miss is a bug of this page, seen by no reader.
  // eslint-disable-next-line no-restricted-syntax -- browser code, kept free of the server's error catalogue
  if (node === null) throw new Error(`search page: missing #${id}`);
  return node as T;
}

function appendFragment(parent: HTMLElement, html: string): void {
  for (const part of fragmentParts(html)) {
    parent.append(part.marked ? element('mark', part.text) : document.createTextNode(part.text));
  }
}

interface Elements {
  root: HTMLElement;
  input: HTMLInputElement;
  sortSelect: HTMLSelectElement;
  status: HTMLElement;
  suggestionsBox: HTMLElement;
  results: HTMLOListElement;
  pages: HTMLElement;
}

function elements(): Elements {
  return {
    root: byId<HTMLElement>(ROOT_ID),
    input: byId<HTMLInputElement>('search-input'),
    sortSelect: byId<HTMLSelectElement>('search-sort'),
    status: byId<HTMLElement>('search-status'),
    suggestionsBox: byId<HTMLElement>('search-suggestions'),
    results: byId<HTMLOListElement>('search-results'),
    pages: byId<HTMLElement>('search-pages'),
  };
}

let latest = 0;

/** The page URL for a query: only what the user chose, so links stay short and the locale comes from the page. */
function pageUrl(params: URLSearchParams): string {
  const own = new URLSearchParams();
  for (const name of ['q', 'sort', 'page', 'size', 'slug_prefix', 'locale', 'exact']) {
    for (const value of params.getAll(name)) if (value !== '') own.append(name, value);
  }
  if (own.get('sort') === 'best') own.delete('sort');
  if (own.get('page') === '1') own.delete('page');
  if (own.get('exact') === '0') own.delete('exact');
  return `${location.pathname}?${own.toString()}`;
}

function navigate(params: URLSearchParams): void {
  history.pushState(null, '', pageUrl(params));
  void show();
}

function linkTo(params: URLSearchParams, text: string): HTMLAnchorElement {
  const link = element('a', text);
  link.href = pageUrl(params);
  link.addEventListener('click', (event) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(params);
  });
  return link;
}

function clear({ status, suggestionsBox, results, pages }: Elements): void {
  status.replaceChildren();
  status.className = '';
  suggestionsBox.replaceChildren();
  results.replaceChildren();
  results.removeAttribute('start');
  pages.replaceChildren();
}

function note({ status }: Elements, kind: 'error' | 'info', ...lines: string[]): void {
  status.className = kind;
  status.replaceChildren(...lines.flatMap((line, index) => (index === 0 ? [element('span', line)] : [element('br'), element('span', line)])));
}

function renderAnswer(page: Elements, answer: Answer, params: URLSearchParams): void {
  const { suggestionsBox, results, pages } = page;
  const { total, size, page: current } = answer.metadata;
  const typed = params.get('q') ?? '';
  const corrected = typeof answer.metadata.corrected === 'string' && answer.metadata.corrected !== '' ? answer.metadata.corrected : undefined;
  const count = `${total.relation === 'gte' ? 'More than ' : ''}${total.value} result${total.value === 1 ? '' : 's'}`;
  note(page, 'info', `${count} for “${corrected ?? typed}”`);
  const first = answer.suggestions[0];
  if (corrected !== undefined) {
    const searched = new URLSearchParams(params);
    searched.set('q', corrected);
    searched.delete('page');
    searched.delete('exact');
    const asTyped = new URLSearchParams(params);
    asTyped.set('exact', '1');
    asTyped.delete('page');
    const searchedLink = linkTo(searched, corrected);
    searchedLink.className = 'search-corrected';
    const asTypedLink = linkTo(asTyped, typed);
    asTypedLink.className = 'search-as-typed';
    suggestionsBox.append('Showing results for ', searchedLink, ' — search instead for ', asTypedLink);
  } else if (first !== undefined) {
    const suggested = new URLSearchParams(params);
    suggested.set('q', first.text);
    suggested.delete('page');
    suggested.delete('exact');
    suggestionsBox.append('Did you mean ', linkTo(suggested, first.text), ` (${first.total}${first.relation === 'gte' ? '+' : ''})?`);
  }
  for (const hit of answer.documents) {
    const item = element('li');
    const title = element('a');
    title.href = hit.url;
    title.className = 'result-title';
    if (hit.highlight.title[0] === undefined) title.textContent = hit.title;
    else appendFragment(title, hit.highlight.title[0]);
    item.append(title);
    const fragments = hit.highlight.body.length > 0 ? hit.highlight.body : [];
    const excerpt = element('p');
    excerpt.className = 'result-excerpt';
    if (fragments.length === 0) excerpt.textContent = hit.summary;
    fragments.forEach((fragment, index) => {
      if (index > 0) excerpt.append(' ');
      appendFragment(excerpt, fragment);
    });
    item.append(excerpt, element('small', hit.url));
    results.append(item);
  }
  // Numbered across pages: the first result of page 2 of 10-result pages is 11.
  results.start = (current - 1) * size + 1;
  const lastPage = Math.min(MAX_PAGE, Math.ceil(total.value / size));
  if (answer.documents.length === 0 && current > 1 && lastPage >= 1) {
    const last = new URLSearchParams(params);
    last.set('page', String(lastPage));
    const line = element('p');
    line.className = 'search-past-end';
    line.append(`Page ${current} is past the end of the results: there ${lastPage === 1 ? 'is 1 page' : `are ${lastPage} pages`}. `, linkTo(last, `Go to page ${lastPage}`));
    suggestionsBox.append(line);
  }
  if (lastPage > 1) renderPageLinks(pages, params, current, lastPage);
}

/** Previous, the page numbers and Next, each a real link to its URL (followed in place, but a new tab works too). */
function renderPageLinks(pages: HTMLElement, params: URLSearchParams, current: number, lastPage: number): void {
  const target = (number: number) => {
    const next = new URLSearchParams(params);
    next.set('page', String(number));
    return next;
  };
  const edge = (number: number, text: string, rel: string) => {
    if (number < 1 || number > lastPage) return;
    const link = linkTo(target(number), text);
    link.rel = rel;
    link.className = `page-${rel}`;
    pages.append(link);
  };
  edge(Math.min(current - 1, lastPage), 'Previous', 'prev');
  for (let number = 1; number <= lastPage; number++) {
    if (number === current) {
      const here = element('span', String(number));
      here.setAttribute('aria-current', 'page');
      pages.append(here);
    } else {
      const link = linkTo(target(number), String(number));
      link.setAttribute('aria-label', `Page ${number}`);
      pages.append(link);
    }
  }
  edge(current + 1, 'Next', 'next');
}

function errorLines(body: unknown): string[] {
  const errors = (body as { errors?: Record<string, { message?: unknown }[]> } | null)?.errors;
  if (errors === undefined || errors === null || typeof errors !== 'object') return ['The search request is not valid.'];
  return Object.values(errors).flatMap((list) => (Array.isArray(list) ? list.map((item) => String(item.message)) : []));
}

/** With the box empty: the queries readers often search for and find something, as links to their results. */
async function showPopular(page: Elements, request: number): Promise<void> {
  try {
    const response = await fetch('/api/v1/search/popular', { headers: { accept: 'application/json' } });
    const queries = ((await response.json()) as { queries?: unknown } | null)?.queries;
    if (request !== latest || !response.ok || !Array.isArray(queries) || queries.length === 0) return;
    page.suggestionsBox.append('Popular searches: ');
    queries.filter((query): query is string => typeof query === 'string').forEach((query, index) => {
      if (index > 0) page.suggestionsBox.append(', ');
      const link = linkTo(new URLSearchParams({ q: query }), query);
      link.className = 'search-popular';
      page.suggestionsBox.append(link);
    });
  } catch {
    // Suggestions are a convenience: without them the box works as before.
  }
}

/** Shows the results of the current location; a slower earlier request never overwrites a later one. */
async function show(): Promise<void> {
  if (document.getElementById(ROOT_ID) === null) return;
  const page = elements();
  const { root, input, sortSelect } = page;
  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  sortSelect.value = params.get('sort') || 'best';
  const request = ++latest;
  clear(page);
  if ((params.get('q') ?? '').trim() === '') {
    await showPopular(page, request);
    return;
  }
  const apiParams = new URLSearchParams(params);
  if (!apiParams.has('locale')) apiParams.set('locale', root.dataset.locale ?? 'en-US');
  root.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(`/api/v1/search?${apiParams.toString()}`, { headers: { accept: 'application/json' } });
    const body: unknown = await response.json().catch(() => null);
    if (request !== latest) return;
    if (response.ok) {
      renderAnswer(page, body as Answer, params);
      searched(params.get('q') ?? '', (body as Answer).metadata.total.value);
    }
    else if (response.status === 400) note(page, 'error', ...errorLines(body));
    else if (response.status === 429) {
      const wait = response.headers.get('retry-after');
      note(page, 'error', `Too many searches from your address. Please try again${wait === null ? ' later' : ` in ${wait} seconds`}.`);
    } else note(page, 'error', `Search is unavailable right now (error ${response.status}). Please try again later.`);
  } catch {
    if (request === latest) note(page, 'error', 'Search is unavailable right now (the server could not be reached). Please try again later.');
  } finally {
    if (request === latest) root.removeAttribute('aria-busy');
  }
}

let started = false;

/**
 * Starts the search page: renders the current location's results and follows form, sort and history events. Called
 * whenever the shell appears (a first load, or client navigation back to the search page, which happens after the
 * popstate event): listeners are added once, the results are shown each time.
 */
export function startSearchPage(): void {
  if (started) {
    void show();
    return;
  }
  started = true;
  document.addEventListener('submit', (event) => {
    if (!(event.target instanceof HTMLFormElement) || event.target.id !== 'search-form') return;
    event.preventDefault();
    const { input, sortSelect } = elements();
    const params = new URLSearchParams();
    params.set('q', input.value);
    if (sortSelect.value !== 'best') params.set('sort', sortSelect.value);
    navigate(params);
  });
  document.addEventListener('change', (event) => {
    if (!(event.target instanceof HTMLSelectElement) || event.target.id !== 'search-sort') return;
    const { input, sortSelect } = elements();
    if (input.value.trim() === '') return;
    const params = new URLSearchParams(location.search);
    params.set('q', input.value);
    params.set('sort', sortSelect.value);
    params.delete('page');
    navigate(params);
  });
  window.addEventListener('popstate', () => void show());
  // Search insights: a result opened ends the burst with it; a page hidden or left ends it without.
  const opened = (event: MouseEvent) => {
    const link = event.target instanceof Element ? event.target.closest('#search-results a.result-title') : null;
    if (link instanceof HTMLAnchorElement && event.button <= 1) openedResult(link.href);
  };
  document.addEventListener('click', opened);
  document.addEventListener('auxclick', opened);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') endBurst();
  });
  window.addEventListener('pagehide', endBurst);
  void show();
}
