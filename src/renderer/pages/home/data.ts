import { loadPostList } from '../../origin-client.js';
import type { PageSource } from '../source.js';

export const homeSource = {
  load: async (_route, origin) => {
    const posts = await loadPostList(origin);
    return { kind: 'home', title: origin.siteName, latest: posts.slice(0, origin.latestPosts), total: posts.length };
  },
  routeOf: () => ({ kind: 'home' }),
  shows: (page) => page.latest,
} satisfies PageSource<'home'>;
