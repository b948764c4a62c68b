import type { PageOf, PageView } from '../view.js';

export const aboutView = {
  Component: ({ site }) => (
    <>
      <h1>{`About ${site.name}`}</h1>
      <p>{site.description}</p>
      <h2>Finding your way</h2>
      <ul>
        <li>
          <a href="/">The home page</a> shows the latest posts.
        </li>
        <li>
          <a href="/plog">The archive</a> lists every post, month by month.
        </li>
        <li>
          <a href="/feed.xml">The feed</a> brings new posts to your feed reader.
        </li>
      </ul>
    </>
  ),
  head: (page, site) => ({ title: page.title, description: `About ${site.name}: ${site.description}`, path: '/about' }),
} satisfies PageView<PageOf<'about'>>;
