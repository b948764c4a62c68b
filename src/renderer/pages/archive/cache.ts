import { oneAddressCaching } from '../one-address.js';
import { archiveAddress } from './route.js';

// It lists every post with its comment count.
export const archiveCaching = oneAddressCaching({ route: { kind: 'archive' }, path: archiveAddress.path, key: 'listing:archive', alteredBy: 'posts and comments', sitemap: 'dated by the newest post' });
