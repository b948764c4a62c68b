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

/** The pages a change to one post can alter: the post itself, the home page (latest posts) and the archive. */
export function pathnamesForPost(oid: string): string[] {
  return [`/plog/${oid}`, '/', '/plog'];
}

export interface BackoffPolicy {
  /** @default 250 */
  baseMs: number;
  /** @default 60000 */
  maxMs: number;
}

/**
 * Delay before retry number `attempts` (1 = first retry): exponential, capped, with "equal jitter" so retries of many
 * jobs spread out yet never fire immediately. `random` is in [0, 1).
 */
export function retryDelayMs(attempts: number, policy: BackoffPolicy, random: number): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.round(exponential / 2 + (exponential / 2) * random);
}
