import { categoryPath } from '../categories.js';
import { changedByParsing } from '../edge/purge-client.js';
import { categoryKey, LISTING_KEYS, postKey } from '../surrogate-keys.js';

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
 * What a change purges: pathnames, which every front and the edge understand (and which reach entries stored before
 * fronts kept keys), and surrogate keys, which reach every entry of a page whatever its URL (a query string, a data
 * route of any build). Both name the same pages, so neither depends on the other.
 */
export interface PurgeTargets {
  pathnames: string[];
  keys: string[];
}

/**
 * The pages a change to one post's approved comments can alter: the post itself, and the listings that show comment
 * counts: the home page (latest posts), the archive and the page of each category the post is in.
 */
export function purgeForComments(oid: string, categories: readonly string[]): PurgeTargets {
  const unique = [...new Set(categories)];
  return {
    pathnames: [`/plog/${oid}`, '/', '/plog', ...unique.map(categoryPath)],
    keys: [postKey(oid), LISTING_KEYS.home, LISTING_KEYS.archive, ...unique.map(categoryKey)],
  };
}

/**
 * The pages a post's creation, edit or deletion can alter: those its comments alter, plus the feed and the sitemap,
 * which list posts (titles, dates, content) but not comments, so a comment never purges them. `categories`: the
 * post's categories before and after the change, since it leaves the pages of those it no longer has.
 *
 * Every listing showing the post is named by its own key, not only reached through `post:<oid>`: a listing too long
 * for its `Surrogate-Key` header to name every post (the archive, a large category) would otherwise keep an old title.
 */
export function purgeForPost(oid: string, categories: readonly string[]): PurgeTargets {
  const unique = [...new Set(categories)];
  return {
    pathnames: [`/plog/${oid}`, '/', '/plog', '/feed.xml', '/sitemap.xml', ...unique.map(categoryPath)],
    keys: [postKey(oid), LISTING_KEYS.home, LISTING_KEYS.archive, LISTING_KEYS.feed, LISTING_KEYS.sitemap, ...unique.map(categoryKey)],
  };
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
