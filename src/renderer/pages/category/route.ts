import { CATEGORY_PATH_PREFIX, categoryPath, isCategoryName } from '../../../categories.js';
import { DEFAULT_LOCALE, type PageAddress } from '../kinds.js';

/**
 * The category a page path's last segment names: percent-decoded and NFC-normalized, so every spelling of a name
 * (lower-case hex, NFD, a letter escaped for no reason) reaches its page; undefined when it names no category.
 */
function categoryNameOf(segment: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
  return isCategoryName(name) ? name : undefined;
}

export const categoryAddress = {
  match: (pathname) => {
    if (!pathname.startsWith(CATEGORY_PATH_PREFIX)) return undefined;
    const segment = pathname.slice(CATEGORY_PATH_PREFIX.length);
    const name = segment.includes('/') ? undefined : categoryNameOf(segment);
    return name === undefined ? undefined : { kind: 'category', name };
  },
  path: (route) => categoryPath(route.name),
  dataPath: (route) => ({ locale: DEFAULT_LOCALE, pagePath: categoryPath(route.name).slice(1) }),
} satisfies PageAddress<'category'>;
