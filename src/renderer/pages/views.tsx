import { SearchBox } from '../search-box.js';
import type { SiteIdentity } from '../site.js';
import type { PageData } from '../types.js';
import { commentRefusedView, commentSentView, errorView, notFoundView } from './answers.js';
import { aboutView } from './about/view.js';
import { archiveView } from './archive/view.js';
import { categoryView } from './category/view.js';
import { homeView } from './home/view.js';
import { postView } from './post/view.js';
import { searchView } from './search/view.js';
import type { PageDataKind, PageHead, PageOf, PageView } from './view.js';

type ViewMap = { readonly [K in PageDataKind]: PageView<PageOf<K>> };

/** How every kind of page shows: the registry's half that the client bundle renders with. A kind missing here does not compile. */
const VIEWS: ViewMap = {
  home: homeView,
  archive: archiveView,
  category: categoryView,
  post: postView,
  search: searchView,
  about: aboutView,
  'not-found': notFoundView,
  error: errorView,
  'comment-sent': commentSentView,
  'comment-refused': commentRefusedView,
};

function viewOf<K extends PageDataKind>(kind: K): PageView<PageOf<K>> {
  return VIEWS[kind];
}

function headOf<K extends PageDataKind>(kind: K, page: PageOf<K>, site: SiteIdentity): PageHead {
  return viewOf(kind).head(page, site);
}

/** The head of `page`: its title, description and canonical path. */
export function pageHead(page: PageData, site: SiteIdentity): PageHead {
  return headOf(page.kind, page, site);
}

function Content<K extends PageDataKind>({ kind, page, site }: { kind: K; page: PageOf<K>; site: SiteIdentity }) {
  const { Component } = viewOf(kind);
  return <Component page={page} site={site} />;
}

/** The locale a page is in: its own where it has one (a search page's), else the site's first. */
export function localeOfPage(page: PageData, siteLocale: string): string {
  return 'locale' in page ? page.locale : siteLocale;
}

/**
 * Every page of the site; the client renders the same tree when it navigates. `locale`: the site's first; the header's
 * search box and search link are in the page's own (see localeOfPage), so a reader of `/zh-CN/search` is offered
 * Chinese titles.
 */
export function App({ page, site, locale: siteLocale }: { page: PageData; site: SiteIdentity; locale: string }) {
  const locale = localeOfPage(page, siteLocale);
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="site-header">
        <a className="site-name" href="/">
          {site.name}
        </a>
        <nav aria-label="Site">
          <a href="/">Home</a> <a href="/plog">Archive</a> <a href={`/${locale}/search`}>Search</a> <a href="/feed.xml">Feed</a> <a href="/about">About</a>
        </nav>
        <SearchBox locale={locale} />
      </header>
      <main id="content" tabIndex={-1}>
        <Content kind={page.kind} page={page} site={site} />
      </main>
      <footer className="site-footer">{site.footer}</footer>
    </>
  );
}
