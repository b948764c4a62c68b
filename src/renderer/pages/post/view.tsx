import { CommentForm } from '../../comment-form.js';
import { focusableCodeBlocks } from '../../head.js';
import type { CommentItem } from '../../types.js';
import { Categories, formatDate } from '../post-line.js';
import type { PageOf, PageView } from '../view.js';

function Comment({ comment }: { comment: CommentItem }) {
  return (
    <li className="comment" id={`comment-${comment.id}`}>
      <p className="comment-meta">
        <strong>{comment.name}</strong> <time dateTime={comment.add_date}>{formatDate(comment.add_date)}</time>
      </p>
      <p className="comment-text">{comment.comment}</p>
    </li>
  );
}

function Post({ page }: { page: PageOf<'post'> }) {
  const { post, comments } = page;
  return (
    <article>
      <h1>{post.title}</h1>
      <p className="post-meta">
        <time dateTime={post.pub_date}>{formatDate(post.pub_date)}</time>
        {post.categories.length > 0 ? (
          <>
            {' · '}
            <Categories names={post.categories} />
          </>
        ) : null}
      </p>
      {/* Post bodies are written by admins and trusted; comments below are reader text and always escaped. */}
      <div className="post-body" dangerouslySetInnerHTML={{ __html: focusableCodeBlocks(post.body_html) }} />
      <section className="comments">
        <h2 id="comments">{comments.count === 1 ? '1 comment' : `${comments.count} comments`}</h2>
        {comments.items.length === 0 ? (
          <p>No comments yet.</p>
        ) : (
          <ol>
            {comments.items.map((comment) => (
              <Comment key={comment.id} comment={comment} />
            ))}
          </ol>
        )}
        {/* Keyed by post: client navigation to another post starts with an empty form. */}
        <CommentForm key={post.oid} oid={post.oid} />
      </section>
    </article>
  );
}

export const postView = {
  Component: Post,
  head: (page, site) => ({ title: page.title, description: page.post.summary.trim() === '' ? site.description : page.post.summary, path: `/plog/${page.post.oid}` }),
} satisfies PageView<PageOf<'post'>>;
