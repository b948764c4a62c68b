import { monthName, PostList } from '../post-line.js';
import type { PageOf, PageView } from '../view.js';

export const archiveView = {
  Component: ({ page }) => (
    <>
      <h1>Archive</h1>
      {page.groups.map((group) => (
        <section key={group.date} className="month">
          <h2 id={`m-${group.date.replace('.', '-')}`}>{monthName(group.date)}</h2>
          <PostList posts={group.posts} />
        </section>
      ))}
    </>
  ),
  head: (page, site) => ({ title: page.title, description: `Every post of ${site.name}, month by month.`, path: '/plog' }),
} satisfies PageView<PageOf<'archive'>>;
