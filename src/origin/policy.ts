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
 * The pages a change to one post's approved comments can alter: the post itself, and the home page (latest posts) and
 * the archive, which show comment counts.
 */
export function pathnamesForComments(oid: string): string[] {
  return [`/plog/${oid}`, '/', '/plog'];
}

/**
 * The pages a post's creation, edit or deletion can alter: those its comments alter, plus the feed and the sitemap,
 * which list posts (titles, dates, content) but not comments, so a comment never purges them.
 */
export function pathnamesForPost(oid: string): string[] {
  return [...pathnamesForComments(oid), '/feed.xml', '/sitemap.xml'];
}
