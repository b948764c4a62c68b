import { PostList } from '../post-line.js';
import type { PageOf, PageView } from '../view.js';

export const homeView = {
  Component: ({ page }) => (
    <>
      <h1>Latest posts</h1>
      <PostList posts={page.latest} />
      <p>
        <a href="/plog">All {page.total} posts in the archive</a>
      </p>
    </>
  ),
  head: (page, site) => ({ title: page.title, description: site.description, path: '/' }),
} satisfies PageView<PageOf<'home'>>;
