import { DEFAULT_LOCALE, type PageAddress } from '../kinds.js';

export const homeAddress = {
  match: (pathname) => (pathname === '/' ? { kind: 'home' } : undefined),
  path: () => '/',
  dataPath: () => ({ locale: DEFAULT_LOCALE, pagePath: 'index' }),
} satisfies PageAddress<'home'>;
