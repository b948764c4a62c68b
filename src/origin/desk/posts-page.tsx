import type { ReactNode } from 'react';
import { formatDate } from '../../renderer/pages/post-line.js';
import { BOUND_LIMIT } from '../../sqlite-limit.js';
import type { OriginDatabase } from '../database.js';
import type { PostState } from './editor-form.js';
import { deskDocument, DeskPage } from './layout.js';
import { SessionPanel } from './pages.js';

/** A line of the desk's list of posts. */
export interface DeskPostLine {
  oid: string;
  title: string;
  state: PostState;
  /** When it is (or is to be) published, ISO 8601 UTC. */
  date: string;
}

/** Posts per page of the list. */
export const POSTS_PER_PAGE = 100;

/**
 * Posts in every state for the desk, newest first, a page at a time (`page` from 1), and whether more follow. A
 * scheduled post's date is its time (see publication.ts).
 */
export function deskPostLines(db: OriginDatabase, page: number): { lines: DeskPostLine[]; more: boolean } {
  const rows = db
    .prepare<[number, number], DeskPostLine>(`SELECT oid, title, state, pub_date AS date FROM posts ORDER BY pub_date DESC, oid ${BOUND_LIMIT} OFFSET ?`)
    .all(POSTS_PER_PAGE + 1, (page - 1) * POSTS_PER_PAGE);
  return { lines: rows.slice(0, POSTS_PER_PAGE), more: rows.length > POSTS_PER_PAGE };
}

const STATE_NAMES: Readonly<Record<PostState, string>> = { draft: 'Draft', scheduled: 'Scheduled', published: 'Published' };

function PostTable(props: { lines: readonly DeskPostLine[] }): ReactNode {
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Posts, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">State</th>
            <th scope="col">Date</th>
          </tr>
        </thead>
        <tbody>
          {props.lines.map((line) => (
            <tr key={line.oid}>
              <th scope="row">
                <a href={`/admin/posts/${line.oid}`}>{line.title}</a>
              </th>
              <td>{STATE_NAMES[line.state]}</td>
              <td>
                <time dateTime={line.date}>{formatDate(line.date)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The desk's first page: every post, the way to write a new one, and who is logged in. */
export function postsPage(props: { userName: string; csrfToken: string; lines: readonly DeskPostLine[]; page: number; more: boolean }): string {
  return deskDocument(
    'Posts',
    <DeskPage title="Posts" section="posts" csrfToken={props.csrfToken}>
      <p>
        <a href="/admin/posts/new">New post</a>
      </p>
      {props.lines.length === 0 ? <p>No posts yet.</p> : <PostTable lines={props.lines} />}
      {props.page > 1 || props.more ? (
        <nav aria-label="Pages of posts" className="desk-actions">
          {props.page > 1 ? <a href={props.page === 2 ? '/admin/' : `/admin/?page=${props.page - 1}`}>Newer posts</a> : null}
          {props.more ? <a href={`/admin/?page=${props.page + 1}`}>Older posts</a> : null}
        </nav>
      ) : null}
      <h2>Your session</h2>
      <SessionPanel userName={props.userName} csrfToken={props.csrfToken} />
    </DeskPage>,
    { style: 'table{display:table;width:100%;border-collapse:collapse}th[scope=row]{font-weight:400;text-align:left}.table-scroll{overflow-x:auto}' },
  );
}
