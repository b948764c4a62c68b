import { getAnswer } from '../../origin-client.js';
import { listAnswerSchema } from '../../origin-schema.js';
import type { PageSource } from '../source.js';

export const archiveSource = {
  load: async (_route, origin) => {
    const list = await getAnswer(origin, '/api/v1/plog/', listAnswerSchema, false);
    return { kind: 'archive', title: `Archive · ${origin.siteName}`, groups: list?.groups ?? [] };
  },
  routeOf: () => ({ kind: 'archive' }),
  shows: (page) => page.groups.flatMap((group) => group.posts),
} satisfies PageSource<'archive'>;
