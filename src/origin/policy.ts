import { changedByParsing } from '../edge/purge-client.js';
import { purgeTargets, type PurgeTargets } from '../renderer/pages/index.js';

export type { PurgeTargets };

/** A post as the list endpoint shows it. */
export interface PostSummary {
  oid: string;
  title: string;
  pub_date: string;
  categories: string[];
  comments: number;
}

export interface PostGroup {
  /** `YYYY.MM` of the posts' publication dates (UTC). */
  date: string;
  posts: PostSummary[];
}

/** Groups posts, already sorted newest first, by publication month; the groups keep that order. */
export function groupByMonth(posts: readonly PostSummary[]): PostGroup[] {
  const groups: PostGroup[] = [];
  for (const post of posts) {
    const date = `${post.pub_date.slice(0, 4)}.${post.pub_date.slice(5, 7)}`;
    const last = groups[groups.length - 1];
    if (last?.date === date) last.posts.push(post);
    else groups.push({ date, posts: [post] });
  }
  return groups;
}

/**
 * The pages a change to one post's approved comments can alter, as the page registry's purge rules name them: the post
 * itself and the listings that show comment counts (the home page, the archive, each category's page), not the feed or
 * the sitemap.
 */
export function purgeForComments(oid: string, categories: readonly string[]): PurgeTargets {
  return purgeTargets({ what: 'comments', oid, categories });
}

/**
 * The pages a post's creation, edit or deletion can alter: those its comments alter, plus the feed and the sitemap.
 * `categories`: the post's categories before and after the change, since it leaves the pages of those it no longer
 * has. Every listing showing the post is named by its own key, not only reached through `post:<oid>`: a listing too
 * long for its `Surrogate-Key` header to name every post (the archive, a large category) would otherwise keep an old
 * title.
 */
export function purgeForPost(oid: string, categories: readonly string[]): PurgeTargets {
  return purgeTargets({ what: 'post', oid, categories });
}

/** Longest URL the edge step refreshes: the purge route's bound on a pathname. */
const EDGE_URL_MAX_LENGTH = 2_048;

/**
 * The relative URL to refresh at the edge for a cache key a front reports purging, or undefined for a key that names
 * no URL. A key is the request's path and query (the `url`, `path` and `search-query` policies) or that followed by a
 * space and a variant (`path+variant`): the part before any space. It must be a path of visible ASCII, as every
 * request target the front accepted is; `//` would name another host. A key that fetch would send as another URL (dot
 * segments: the front redirects those, but a page cache in front of another app may keep them) names nothing the edge
 * step can refresh.
 */
export function edgeUrlOfCacheKey(key: string): string | undefined {
  const space = key.indexOf(' ');
  const url = space === -1 ? key : key.slice(0, space);
  if (!url.startsWith('/') || url.startsWith('//') || url.length > EDGE_URL_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(url)) return undefined;
  if (changedByParsing(url) !== undefined) return undefined;
  return url;
}
