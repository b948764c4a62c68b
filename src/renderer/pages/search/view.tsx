import { SearchShell } from '../../../search/page/shell.js';
import type { PageOf, PageView } from '../view.js';

export const searchView = {
  Component: ({ page }) => <SearchShell locale={page.locale} />,
  head: (page, site) => ({ title: page.title, description: `Search the posts of ${site.name}.`, path: `/${page.locale}/search` }),
} satisfies PageView<PageOf<'search'>>;
