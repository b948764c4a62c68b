import { DEFAULT_LOCALE, type PageAddress } from '../kinds.js';

export const archiveAddress = {
  match: (pathname) => (pathname === '/plog' ? { kind: 'archive' } : undefined),
  path: () => '/plog',
  dataPath: () => ({ locale: DEFAULT_LOCALE, pagePath: 'plog' }),
} satisfies PageAddress<'archive'>;
