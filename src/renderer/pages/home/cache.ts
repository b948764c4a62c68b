import { oneAddressCaching } from '../one-address.js';
import { homeAddress } from './route.js';

// It lists the latest posts with their comment counts.
export const homeCaching = oneAddressCaching({ route: { kind: 'home' }, path: homeAddress.path, key: 'listing:home', alteredBy: 'posts and comments', sitemap: 'dated by the newest post' });
