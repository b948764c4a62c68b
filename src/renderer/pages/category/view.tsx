import { categoryPath } from '../../../categories.js';
import { PostList } from '../post-line.js';
import type { PageOf, PageView } from '../view.js';

export const categoryView = {
  Component: ({ page }) => (
    <>
      <h1>Posts in {page.name}</h1>
      <p>
        {page.posts.length === 1 ? '1 post.' : `${page.posts.length} posts, newest first.`} <a href="/plog">Every post in the archive</a>
      </p>
      <PostList posts={page.posts} />
    </>
  ),
  head: (page, site) => ({ title: page.title, description: `The posts of ${site.name} in ${page.name}, newest first.`, path: categoryPath(page.name) }),
} satisfies PageView<PageOf<'category'>>;
