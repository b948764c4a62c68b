import { useEffect, useLayoutEffect, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { pageHead } from './pages/views.js';
import { App } from './pages/views.js';
import { dataUrl, matchPage, pagePathOf, parseDataUrl } from './routes.js';
import type { Bootstrap, PageData } from './types.js';

/**
 * The browser side: hydrates the server's HTML, then turns internal link clicks into a fetch of the page's data route
 * and an in-place render. A 404 from the data route means the site was redeployed (another build id): the click
 * becomes a full page load, which brings the new bundle.
 */
function readBootstrap(): Bootstrap {
  const element = document.getElementById('__SITESTACK_DATA__');
  return JSON.parse(element?.textContent ?? '{}') as Bootstrap;
}

const bootstrap = readBootstrap();

/** A page's props and the address it is at: another than the one asked for when it moved (a renamed post). */
async function loadPage(url: URL): Promise<{ page: PageData; href: string } | undefined> {
  const route = matchPage(url.pathname, bootstrap.locales);
  if (route === undefined) return undefined;
  // `no-cache`: the browser asks again instead of reusing its own copy, which the data route's long max-age would
  // keep for a day; the servers' caches, which purges keep fresh, still answer.
  const response = await fetch(dataUrl(bootstrap.buildId, route), { headers: { accept: 'application/json' }, cache: 'no-cache' });
  if (!response.ok) return undefined;
  const page = (await response.json()) as PageData;
  // A moved page's data route answers 301 to its new data route, which fetch follows: the address bar follows too.
  const moved = response.redirected ? parseDataUrl(new URL(response.url).pathname, bootstrap.locales) : undefined;
  return { page, href: moved === undefined ? url.href : new URL(`${pagePathOf(moved.route)}${url.hash}`, location.href).href };
}

/** Links the client can render itself: same origin, a known page, and not the search page (it runs its own script). */
function navigable(anchor: HTMLAnchorElement, event: MouseEvent): URL | undefined {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  if ((anchor.target !== '' && anchor.target !== '_self') || anchor.hasAttribute('download')) return undefined;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin) return undefined;
  const route = matchPage(url.pathname, bootstrap.locales);
  if (route === undefined || route.kind === 'search') return undefined;
  if (url.pathname === location.pathname && url.search === location.search && url.hash !== '') return undefined;
  return url;
}

/** What the server's head says of a page, updated in place when the client renders another page. */
function applyHead(page: PageData): void {
  const head = pageHead(page, bootstrap.site);
  document.title = head.title;
  const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  // The server wrote the public base URL into the canonical link; later pages keep it (the host of the first page).
  const base = canonical === null ? location.origin : new URL(canonical.href).origin;
  const url = head.path === undefined ? undefined : `${base}${head.path}`;
  const set = (selector: string, attribute: string, value: string) => document.querySelector(selector)?.setAttribute(attribute, value);
  set('meta[name="description"]', 'content', head.description);
  set('meta[property="og:title"]', 'content', head.title);
  set('meta[property="og:description"]', 'content', head.description);
  if (url !== undefined) {
    set('link[rel="canonical"]', 'href', url);
    set('meta[property="og:url"]', 'content', url);
  }
}

function Root() {
  const [page, setPage] = useState<PageData>(bootstrap.page);

  // A layout effect: the title and meta tags change in the same task as the content, so nothing (a reader's tab, a
  // script, a test) ever sees the new page under the old title.
  useLayoutEffect(() => applyHead(page), [page]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const anchor = event.target instanceof Element ? event.target.closest('a') : null;
      if (anchor === null) return;
      const url = navigable(anchor, event);
      if (url === undefined) return;
      event.preventDefault();
      void loadPage(url).then(
        (next) => {
          if (next === undefined) {
            location.assign(url.href);
            return;
          }
          history.pushState(null, '', next.href);
          setPage(next.page);
          window.scrollTo(0, 0);
          document.getElementById('content')?.focus();
        },
        () => location.assign(url.href),
      );
    };
    const onPopState = () => {
      const url = new URL(location.href);
      void loadPage(url).then(
        (next) => {
          if (next === undefined) {
            location.reload();
            return;
          }
          if (next.href !== url.href) history.replaceState(null, '', next.href);
          setPage(next.page);
        },
        () => location.reload(),
      );
    };
    document.addEventListener('click', onClick);
    window.addEventListener('popstate', onPopState);
    // Tells scripts and tests that clicks are now handled in place.
    document.documentElement.dataset.navigation = 'client';
    return () => {
      document.removeEventListener('click', onClick);
      window.removeEventListener('popstate', onPopState);
    };
  }, []);

  return <App page={page} site={bootstrap.site} locale={bootstrap.locales[0] ?? 'en-US'} />;
}

const root = document.getElementById('root');
if (root !== null) hydrateRoot(root, <Root />);
