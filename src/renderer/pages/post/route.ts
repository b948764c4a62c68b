import { DEFAULT_LOCALE, type PageAddress } from '../kinds.js';

const OID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const POST_PATH = /^\/plog\/([^/]+)$/;

export const postAddress = {
  match: (pathname) => {
    const oid = POST_PATH.exec(pathname)?.[1];
    return oid !== undefined && oid.length <= 100 && OID.test(oid) ? { kind: 'post', oid } : undefined;
  },
  path: (route) => `/plog/${route.oid}`,
  dataPath: (route) => ({ locale: DEFAULT_LOCALE, pagePath: `plog/${route.oid}` }),
} satisfies PageAddress<'post'>;
