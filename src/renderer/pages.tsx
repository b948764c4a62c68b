import { Fragment, type ReactNode } from 'react';
import { categoryPath, isCategoryName } from '../categories.js';
import { SearchShell } from '../search/page/shell.js';
import { COMMENT_PENDING_MESSAGE, CommentForm } from './comment-form.js';
import { focusableCodeBlocks } from './head.js';
import { SearchBox } from './search-box.js';
import type { SiteIdentity } from './site.js';
import type { CommentItem, MonthGroup, PageData, PostListing } from './types.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Formats in UTC by hand, so the server and every browser print the same text (no hydration mismatch). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

function monthName(group: string): string {
  const [year, month] = group.split('.');
  return `${MONTHS[Number(month) - 1] ?? month} ${year}`;
}

function Layout({ site, locale, children }: { site: SiteIdentity; locale: string; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="site-header">
        <a className="site-name" href="/">
          {site.name}
        </a>
        <nav aria-label="Site">
          <a href="/">Home</a> <a href="/plog">Archive</a> <a href={`/${locale}/search`}>Search</a> <a href="/feed.xml">Feed</a>
        </nav>
        <SearchBox locale={locale} />
      </header>
      <main id="content" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">{site.footer}</footer>
    </>
  );
}

/** A post's categories, each a link to its page; a name the origin should not have sent stays plain text. */
function Categories({ names }: { names: string[] }) {
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

function Home({ latest, total }: { latest: PostListing[]; total: number }) {
  return (
    <>
      <h1>Latest posts</h1>
      <ul className="post-list">
        {latest.map((post) => (
          <PostLine key={post.oid} post={post} />
        ))}
      </ul>
      <p>
        <a href="/plog">All {total} posts in the archive</a>
      </p>
    </>
  );
}

function Archive({ groups }: { groups: MonthGroup[] }) {
  return (
    <>
      <h1>Archive</h1>
      {groups.map((group) => (
        <section key={group.date} className="month">
          <h2 id={`m-${group.date.replace('.', '-')}`}>{monthName(group.date)}</h2>
          <ul className="post-list">
            {group.posts.map((post) => (
              <PostLine key={post.oid} post={post} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function Category({ name, posts }: { name: string; posts: PostListing[] }) {
  return (
    <>
      <h1>Posts in {name}</h1>
      <p>
        {posts.length === 1 ? '1 post.' : `${posts.length} posts, newest first.`} <a href="/plog">Every post in the archive</a>
      </p>
      <ul className="post-list">
        {posts.map((post) => (
          <PostLine key={post.oid} post={post} />
        ))}
      </ul>
    </>
  );
}

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

function Post({ page }: { page: Extract<PageData, { kind: 'post' }> }) {
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

/** Every page of the site; the client renders the same tree when it navigates. `locale`: the search box's. */
export function App({ page, site, locale }: { page: PageData; site: SiteIdentity; locale: string }) {
  let content: ReactNode;
  switch (page.kind) {
    case 'home':
      content = <Home latest={page.latest} total={page.total} />;
      break;
    case 'archive':
      content = <Archive groups={page.groups} />;
      break;
    case 'post':
      content = <Post page={page} />;
      break;
    case 'category':
      content = <Category name={page.name} posts={page.posts} />;
      break;
    case 'search':
      content = <SearchShell locale={page.locale} />;
      break;
    case 'not-found':
      content = (
        <>
          <h1>Page not found</h1>
          <p>
            Nothing lives at <code>{page.pathname}</code>. Try the <a href="/plog">archive</a>.
          </p>
        </>
      );
      break;
    case 'comment-sent':
      content = (
        <>
          <h1>Comment received</h1>
          <p role="status">{COMMENT_PENDING_MESSAGE}</p>
          <p>
            <a href={`/plog/${page.oid}`}>Back to the post</a>
          </p>
        </>
      );
      break;
    case 'comment-refused':
      content = (
        <>
          <h1>Your comment was not sent</h1>
          <CommentForm oid={page.oid} refused={page.messages} values={page.values} />
          <p>
            <a href={`/plog/${page.oid}`}>Back to the post</a>
          </p>
        </>
      );
      break;
    case 'error':
      content = (
        <>
          <h1>Something went wrong</h1>
          <p>The page could not be rendered because the content origin did not answer as expected. Please try again shortly.</p>
        </>
      );
      break;
  }
  return (
    <Layout site={site} locale={locale}>
      {content}
    </Layout>
  );
}
