/**
 * Well-formed origin answers to `GET /api/v1/plog/` and `GET /api/v1/plog/<oid>`, shared by the schema tests and the
 * untrusted-origin properties. Every array holds at least one element: the properties read an array's shape from its
 * first element.
 */
export const LIST_ANSWER = {
  groups: [
    {
      date: '2026.02',
      posts: [
        { oid: 'second-post', title: 'Second post', pub_date: '2026-02-03T10:00:00.000Z', categories: ['notes', 'sqlite'], comments: 0 },
        { oid: 'first-post', title: 'First post', pub_date: '2026-02-01T10:00:00.000Z', categories: [], comments: 3 },
      ],
    },
    { date: '2026.01', posts: [{ oid: 'oldest-post', title: 'Oldest', pub_date: '2026-01-05T10:00:00.000Z', categories: ['x'], comments: 1 }] },
  ],
};

export const POST_ANSWER = {
  post: {
    oid: 'first-post',
    title: 'First post',
    body_html: '<p>Hello</p>',
    summary: 'Hello',
    pub_date: '2026-02-01T10:00:00.000Z',
    categories: ['notes'],
  },
  comments: {
    count: 2,
    items: [
      { id: 1, name: 'Ann', comment: 'Nice', add_date: '2026-02-02T10:00:00.000Z' },
      { id: 2, name: 'Bo', comment: 'Agreed', add_date: '2026-02-02T11:00:00.000Z' },
    ],
  },
};
