import { LOCALE, type PageAddress } from '../kinds.js';

const SEARCH_PATH = /^\/([^/]+)\/search$/;

export const searchAddress = {
  match: (pathname, locales) => {
    const locale = SEARCH_PATH.exec(pathname)?.[1];
    return locale !== undefined && LOCALE.test(locale) && locales.includes(locale) ? { kind: 'search', locale } : undefined;
  },
  path: (route) => `/${route.locale}/search`,
  dataPath: (route) => ({ locale: route.locale, pagePath: 'search' }),
} satisfies PageAddress<'search'>;
