import { Fragment } from 'react';
import { categoryPath, isCategoryName } from '../../categories.js';
import type { PostListing } from '../types.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Formats in UTC by hand, so the server and every browser print the same text (no hydration mismatch). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

/** `YYYY.MM` as `May 2026`. */
export function monthName(group: string): string {
  const [year, month] = group.split('.');
  return `${MONTHS[Number(month) - 1] ?? month} ${year}`;
}

/** A post's categories, each a link to its page; a name the origin should not have sent stays plain text. */
export function Categories({ names }: { names: string[] }) {
  return (
    <>
      {names.map((name, index) => (
        // By position: a name an untrusted origin repeats must not give two children one key.
        <Fragment key={index}>
          {index > 0 ? ', ' : null}
          {isCategoryName(name) ? <a href={categoryPath(name)}>{name}</a> : name}
        </Fragment>
      ))}
    </>
  );
}

function PostLine({ post }: { post: PostListing }) {
  return (
    <li className="post-line">
      <a href={`/plog/${post.oid}`}>{post.title}</a> <time dateTime={post.pub_date}>{formatDate(post.pub_date)}</time>
      {post.categories.length > 0 ? (
        <span className="categories">
          {' · '}
          <Categories names={post.categories} />
        </span>
      ) : null}
      {post.comments > 0 ? <span className="comment-count"> · {post.comments === 1 ? '1 comment' : `${post.comments} comments`}</span> : null}
    </li>
  );
}

/** The listings' list of posts, each with its date, categories and comment count. */
export function PostList({ posts }: { posts: readonly PostListing[] }) {
  return (
    <ul className="post-list">
      {posts.map((post) => (
        <PostLine key={post.oid} post={post} />
      ))}
    </ul>
  );
}
