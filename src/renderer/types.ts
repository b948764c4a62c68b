/** The props of every page, as the server renders them and as the data routes answer them. */
export interface PostListing {
  oid: string;
  title: string;
  pub_date: string;
  categories: string[];
  comments: number;
}

export interface MonthGroup {
  date: string;
  posts: PostListing[];
}

export interface PostDetail {
  oid: string;
  title: string;
  body_html: string;
  summary: string;
  pub_date: string;
  categories: string[];
}

export interface CommentItem {
  id: number;
  name: string;
  comment: string;
  add_date: string;
}

export type PageData =
  | { kind: 'home'; title: string; latest: PostListing[]; total: number }
  | { kind: 'archive'; title: string; groups: MonthGroup[] }
  | { kind: 'post'; title: string; post: PostDetail; comments: { count: number; items: CommentItem[] } }
  | { kind: 'search'; title: string; locale: string }
  | { kind: 'not-found'; title: string; pathname: string }
  | { kind: 'error'; title: string };

/** What the server hands the client bundle in the page. */
export interface Bootstrap {
  buildId: string;
  locales: string[];
  page: PageData;
}
