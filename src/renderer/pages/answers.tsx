import { COMMENT_PENDING_MESSAGE, CommentForm } from '../comment-form.js';
import type { SiteIdentity } from '../site.js';
import type { PageData } from '../types.js';
import type { PageHead, PageOf, PageView } from './view.js';

/*
 * The pages that are answers rather than addresses: no route leads to them, no cache keeps them (see page-keys.ts),
 * and their head names no path.
 */

const answerHead = (page: PageData, site: SiteIdentity): PageHead => ({ title: page.title, description: site.description, path: undefined });

function BackToPost({ oid }: { oid: string }) {
  return (
    <p>
      <a href={`/plog/${oid}`}>Back to the post</a>
    </p>
  );
}

export const notFoundView = {
  Component: ({ page }) => (
    <>
      <h1>Page not found</h1>
      <p>
        Nothing lives at <code>{page.pathname}</code>. Try the <a href="/plog">archive</a>.
      </p>
    </>
  ),
  head: answerHead,
} satisfies PageView<PageOf<'not-found'>>;

export const errorView = {
  Component: () => (
    <>
      <h1>Something went wrong</h1>
      <p>The page could not be rendered because the content origin did not answer as expected. Please try again shortly.</p>
    </>
  ),
  head: answerHead,
} satisfies PageView<PageOf<'error'>>;

export const commentSentView = {
  Component: ({ page }) => (
    <>
      <h1>Comment received</h1>
      <p role="status">{COMMENT_PENDING_MESSAGE}</p>
      <BackToPost oid={page.oid} />
    </>
  ),
  head: answerHead,
} satisfies PageView<PageOf<'comment-sent'>>;

export const commentRefusedView = {
  Component: ({ page }) => (
    <>
      <h1>Your comment was not sent</h1>
      <CommentForm oid={page.oid} refused={page.messages} values={page.values} />
      <BackToPost oid={page.oid} />
    </>
  ),
  head: answerHead,
} satisfies PageView<PageOf<'comment-refused'>>;
