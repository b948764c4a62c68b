import { DEFAULT_LOCALE, type PageAddress } from '../kinds.js';

export const aboutAddress = {
  match: (pathname) => (pathname === '/about' ? { kind: 'about' } : undefined),
  path: () => '/about',
  dataPath: () => ({ locale: DEFAULT_LOCALE, pagePath: 'about' }),
} satisfies PageAddress<'about'>;
