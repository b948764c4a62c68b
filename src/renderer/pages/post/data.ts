import { getPostAnswer } from '../../origin-client.js';
import type { PageSource } from '../source.js';

export const postSource = {
  load: async (route, origin) => {
    const found = await getPostAnswer(origin, route.oid);
    if (found === undefined) return undefined;
    // A renamed post: its old address moves readers to the new one (the handler's 301), page and data route alike.
    if ('movedTo' in found) return { movedTo: { kind: 'post', oid: found.movedTo } };
    return { kind: 'post', title: `${found.post.title} · ${origin.siteName}`, post: found.post, comments: found.comments };
  },
  routeOf: (page) => ({ kind: 'post', oid: page.post.oid }),
  // Its comments are not posts; a listing's purge reaches it through its own key.
  shows: () => [],
} satisfies PageSource<'post'>;
