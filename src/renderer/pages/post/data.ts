import { getAnswer } from '../../origin-client.js';
import { postAnswerSchema } from '../../origin-schema.js';
import type { PageSource } from '../source.js';

export const postSource = {
  load: async (route, origin) => {
    const found = await getAnswer(origin, `/api/v1/plog/${encodeURIComponent(route.oid)}`, postAnswerSchema, true);
    if (found === undefined) return undefined;
    return { kind: 'post', title: `${found.post.title} · ${origin.siteName}`, post: found.post, comments: found.comments };
  },
  routeOf: (page) => ({ kind: 'post', oid: page.post.oid }),
  // Its comments are not posts; a listing's purge reaches it through its own key.
  shows: () => [],
} satisfies PageSource<'post'>;
