import type { SiteIdentity } from './site.js';
import type { PageData } from './pages/page-data.js';
import type { PostSummary as PostListing, PostGroup as MonthGroup } from '../origin/policy.js';
import type { Post as PostDetail, PublicComment as CommentItem } from '../origin/store.js';

// The origin's JSON API (DESIGN §5) is one contract: the renderer reads exactly the shapes the origin answers.
export type { PostListing, MonthGroup, PostDetail, CommentItem };

export type { PageData, CommentAnswerPage, CommentValues } from './pages/page-data.js';

/** What the server hands the client bundle in the page. */
export interface Bootstrap {
  buildId: string;
  locales: string[];
  page: PageData;
  site: SiteIdentity;
}
