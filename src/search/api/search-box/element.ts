/**
 * `<sitestack-search>`: the search box with suggestions and the results list, for any site (browser code, no
 * framework). An ARIA 1.2 combobox: the input owns a listbox of title completions from `/api/search/autocomplete`,
 * moved through with the arrow keys (aria-activedescendant), Enter opens the active one or searches, Escape closes the
 * list; results of `/api/v1/search` render below with a polite status line, or on the page named by `action`. Every
 * node is made with the DOM, never from markup; the styles are a constructed sheet, so a Content-Security-Policy
 * without 'unsafe-inline' (or 'unsafe-eval') lets it run when it allows the script and the endpoint.
 */
import { canonicalLocale } from '../../../locale.js';
import { fragmentParts } from '../../page/fragment-nodes.js';
import { completionsOf, resultsOf, type Completion, type Results } from './answers.js';

export const ELEMENT_NAME = 'sitestack-search';
const DEBOUNCE_MS = 120;
const REQUEST_TIMEOUT_MS = 8000;
const MAX_QUERY = 200;

const STYLE = `
:host { display: block; font: inherit; color: inherit; }
form { display: flex; gap: .5rem; align-items: flex-start; }
.field { position: relative; flex: 1; }
input { box-sizing: border-box; width: 100%; font: inherit; padding: .4rem .6rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
[role=listbox] { position: absolute; z-index: 10; left: 0; right: 0; margin: 0; padding: 0; list-style: none; background: Canvas; color: CanvasText; border: 1px solid GrayText; }
[role=listbox][hidden] { display: none; }
[role=option] { padding: .3rem .6rem; cursor: pointer; }
[role=option][aria-selected=true] { background: Highlight; color: HighlightText; }
ol { padding-left: 1.2rem; }
li.result { margin: .8rem 0; }
mark { background: var(--sitestack-mark, #ffe58a); color: inherit; }
.error { color: var(--sitestack-error, #b00020); }
`;

function node<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function appendFragment(parent: HTMLElement, html: string): void {
  for (const part of fragmentParts(html)) parent.append(part.marked ? node('mark', {}, part.text) : document.createTextNode(part.text));
}

let sheet: CSSStyleSheet | undefined;

export class SearchBoxElement extends HTMLElement {
  /** The search API's base when the element names none: the origin the script was loaded from. */
  static defaultEndpoint: string | undefined;

  readonly #input = node('input', {
    id: 'q', part: 'input', type: 'search', name: 'q', role: 'combobox', 'aria-autocomplete': 'list', 'aria-expanded': 'false',
    'aria-controls': 'suggestions', autocomplete: 'off', spellcheck: 'false', maxlength: String(MAX_QUERY),
  });
  readonly #label = node('label', { for: 'q', part: 'label', class: 'visually-hidden' });
  readonly #list = node('ul', { id: 'suggestions', part: 'suggestions', role: 'listbox', hidden: '' });
  readonly #status = node('div', { part: 'status', role: 'status', 'aria-live': 'polite' });
  readonly #results = node('ol', { part: 'results' });
  #completions: Completion[] = [];
  #active = -1;
  #typed: ReturnType<typeof setTimeout> | undefined;
  #pending: AbortController | undefined;
  #searches = 0;

  connectedCallback(): void {
    if (this.shadowRoot !== null) return;
    const root = this.attachShadow({ mode: 'open' });
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function') {
      sheet ??= new CSSStyleSheet();
      sheet.replaceSync(STYLE);
      root.adoptedStyleSheets = [sheet];
    }
    this.#label.textContent = this.getAttribute('label') ?? 'Search';
    this.#input.placeholder = this.getAttribute('placeholder') ?? '';
    const form = node('form', { role: 'search', part: 'form' });
    const field = node('div', { class: 'field' });
    field.append(this.#input, this.#list);
    form.append(this.#label, field, node('button', { type: 'submit', part: 'button' }, this.getAttribute('button') ?? 'Search'));
    root.append(form, this.#status, this.#results);
    this.#input.addEventListener('input', () => this.#onInput());
    this.#input.addEventListener('keydown', (event) => this.#onKey(event));
    this.#input.addEventListener('blur', () => this.#close());
    this.#list.addEventListener('mousedown', (event) => event.preventDefault());
    this.#list.addEventListener('click', (event) => {
      const index = this.#options().indexOf((event.target as Element).closest('[role=option]') as HTMLElement);
      if (index !== -1) this.#open(index);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#submit(this.#input.value);
    });
    const q = new URLSearchParams(location.search).get('q');
    if (!this.hasAttribute('action') && q !== null && q.trim() !== '') {
      this.#input.value = q.slice(0, MAX_QUERY);
      void this.#search(this.#input.value);
    }
  }

  disconnectedCallback(): void {
    clearTimeout(this.#typed);
    this.#pending?.abort();
  }

  get #endpoint(): string | undefined {
    const base = this.getAttribute('endpoint') ?? SearchBoxElement.defaultEndpoint;
    if (base === undefined) return undefined;
    try {
      const url = new URL(base, location.href);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href.replace(/\/+$/, '') : undefined;
    } catch {
      return undefined;
    }
  }

  get #locale(): string {
    const own = this.getAttribute('locale') ?? this.closest('[lang]')?.getAttribute('lang') ?? undefined;
    return canonicalLocale(own ?? undefined) ?? 'en-US';
  }

  async #get(path: string, params: Record<string, string>, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
    const endpoint = this.#endpoint;
    if (endpoint === undefined) return { status: 0, body: undefined };
    const url = `${endpoint}${path}?${new URLSearchParams({ ...params, locale: this.#locale }).toString()}`;
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const response = await fetch(url, { mode: 'cors', credentials: 'omit', headers: { accept: 'application/json' }, signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
    const body: unknown = await response.json().catch(() => undefined);
    return { status: response.status, body };
  }

  #onInput(): void {
    clearTimeout(this.#typed);
    const prefix = this.#input.value.trim();
    if (prefix === '') return this.#show([]);
    this.#typed = setTimeout(() => void this.#complete(prefix), DEBOUNCE_MS);
  }

  async #complete(prefix: string): Promise<void> {
    this.#pending?.abort();
    const pending = new AbortController();
    this.#pending = pending;
    try {
      const { status, body } = await this.#get('/api/search/autocomplete', { q: prefix.slice(0, 100) }, pending.signal);
      if (pending.signal.aborted || this.#input.value.trim() !== prefix) return;
      this.#show(status === 200 ? completionsOf(body, document.baseURI) : []);
    } catch {
      if (!pending.signal.aborted) this.#show([]);
    }
  }

  #options(): HTMLElement[] {
    return [...this.#list.children] as HTMLElement[];
  }

  #show(completions: Completion[]): void {
    this.#completions = completions;
    this.#active = -1;
    this.#list.replaceChildren(...completions.map((completion, i) => node('li', { id: `option-${i}`, role: 'option', part: 'option', 'aria-selected': 'false' }, completion.title)));
    this.#input.removeAttribute('aria-activedescendant');
    const open = completions.length > 0 && document.activeElement === this && this.shadowRoot?.activeElement === this.#input;
    this.#list.hidden = !open;
    this.#input.setAttribute('aria-expanded', String(open));
  }

  #close(): void {
    this.#list.hidden = true;
    this.#active = -1;
    this.#input.setAttribute('aria-expanded', 'false');
    this.#input.removeAttribute('aria-activedescendant');
    for (const option of this.#options()) option.setAttribute('aria-selected', 'false');
  }

  #move(step: number): void {
    const count = this.#completions.length;
    if (count === 0) return;
    this.#list.hidden = false;
    this.#input.setAttribute('aria-expanded', 'true');
    this.#active = this.#active === -1 ? (step > 0 ? 0 : count - 1) : (this.#active + step + count) % count;
    this.#options().forEach((option, i) => option.setAttribute('aria-selected', String(i === this.#active)));
    this.#input.setAttribute('aria-activedescendant', `option-${this.#active}`);
    this.#options()[this.#active]?.scrollIntoView({ block: 'nearest' });
  }

  #onKey(event: KeyboardEvent): void {
    const open = !this.#list.hidden;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      this.#move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter' && open && this.#active !== -1) {
      event.preventDefault();
      this.#open(this.#active);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      this.#close();
    }
  }

  #open(index: number): void {
    const completion = this.#completions[index];
    if (completion !== undefined) location.assign(completion.href);
  }

  #submit(value: string): void {
    const q = value.trim().slice(0, MAX_QUERY);
    if (q === '') return;
    this.#close();
    const action = this.getAttribute('action');
    if (action !== null) {
      const target = new URL(action, document.baseURI);
      target.searchParams.set('q', q);
      if (target.protocol === 'http:' || target.protocol === 'https:') location.assign(target.href);
      return;
    }
    void this.#search(q);
  }

  async #search(q: string): Promise<void> {
    const search = ++this.#searches;
    this.#say(`Searching for “${q}”…`);
    let answer: { status: number; body: unknown };
    try {
      answer = await this.#get('/api/v1/search', { q });
    } catch {
      answer = { status: 0, body: undefined };
    }
    if (search !== this.#searches) return;
    const results = answer.status === 200 ? resultsOf(answer.body, document.baseURI) : undefined;
    if (results === undefined) {
      this.#results.replaceChildren();
      return this.#say(answer.status === 429 ? 'Too many searches: try again in a minute.' : 'Search is unavailable right now.', true);
    }
    this.#render(q, results);
  }

  #say(text: string, error = false): void {
    this.#status.textContent = text;
    this.#status.classList.toggle('error', error);
  }

  #render(q: string, results: Results): void {
    const shown = results.corrected ?? q;
    const count = `${results.total}${results.more ? '+' : ''}`;
    this.#say(results.items.length === 0 ? `No results for “${shown}”.` : `${count} result${results.total === 1 ? '' : 's'} for “${shown}”.`);
    if (results.suggestions.length > 0) {
      const line = node('p', { part: 'suggestions-line' }, 'Did you mean: ');
      results.suggestions.forEach((suggestion, i) => {
        const button = node('button', { type: 'button', part: 'suggestion' }, suggestion);
        button.addEventListener('click', () => {
          this.#input.value = suggestion;
          void this.#search(suggestion);
        });
        line.append(...(i === 0 ? [] : [document.createTextNode(' ')]), button);
      });
      this.#status.append(line);
    }
    this.#results.replaceChildren(
      ...results.items.map((item) => {
        const li = node('li', { class: 'result', part: 'result' });
        const link = node('a', { href: item.href, part: 'result-link' });
        if (item.titleFragments[0] !== undefined) appendFragment(link, item.titleFragments[0]);
        else link.textContent = item.title;
        li.append(link);
        if (item.summary !== '') li.append(node('p', { part: 'result-summary' }, item.summary));
        if (item.bodyFragments.length > 0) {
          const excerpt = node('p', { part: 'result-excerpt' });
          item.bodyFragments.forEach((fragment, i) => {
            if (i > 0) excerpt.append(' … ');
            appendFragment(excerpt, fragment);
          });
          li.append(excerpt);
        }
        return li;
      }),
    );
  }
}
