import { getAnswer } from '../../origin-client.js';
import { listAnswerSchema } from '../../origin-schema.js';
import type { PageSource } from '../source.js';

export const categorySource = {
  load: async (route, origin) => {
    const list = await getAnswer(origin, `/api/v1/plog/?category=${encodeURIComponent(route.name)}`, listAnswerSchema, false);
    const posts = (list?.groups ?? []).flatMap((group) => group.posts);
    // A category is a page only while a post is in it: an unknown name and one whose last post left it are 404s.
    if (posts.length === 0) return undefined;
    return { kind: 'category', title: `Posts in ${route.name} · ${origin.siteName}`, name: route.name, posts };
  },
  routeOf: (page) => ({ kind: 'category', name: page.name }),
  shows: (page) => page.posts,
} satisfies PageSource<'category'>;
