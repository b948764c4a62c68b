import type { PostSummary as PostListing, PostGroup as MonthGroup } from '../../origin/policy.js';
import type { Post as PostDetail, PublicComment as CommentItem } from '../../origin/store.js';

/** The props of every page, as the server renders them and as the data routes answer them: one member per kind. */
export type PageData =
  | { kind: 'home'; title: string; latest: PostListing[]; total: number }
  | { kind: 'archive'; title: string; groups: MonthGroup[] }
  | { kind: 'post'; title: string; post: PostDetail; comments: { count: number; items: CommentItem[] } }
  | { kind: 'category'; title: string; name: string; posts: PostListing[] }
  | { kind: 'search'; title: string; locale: string }
  | { kind: 'about'; title: string }
  | { kind: 'not-found'; title: string; pathname: string }
  | { kind: 'error'; title: string }
  | CommentAnswerPage;

/**
 * What the front's comment route answers a form posted without JavaScript: the thanks after the redirect, or the form
 * again with the origin's messages. Never a route of its own and never cached (see comment-route.ts).
 */
export type CommentAnswerPage =
  | { kind: 'comment-sent'; title: string; oid: string }
  | { kind: 'comment-refused'; title: string; oid: string; messages: string[]; values: CommentValues };

/** What a reader typed into the comment form. */
export interface CommentValues {
  name: string;
  comment: string;
}
