import { categoryPath } from '../categories.js';
import { escapeHtml } from '../html-escape.js';
import type { SiteIdentity } from './site.js';
import type { PageData } from './types.js';

/** What a page says about itself to crawlers and link previews; shared by the server's head and the client's updates. */
export interface PageHead {
  title: string;
  description: string;
  /** The page's own path, or undefined for pages that are not a public address (404, errors, comment answers). */
  path: string | undefined;
}

export function pageHead(page: PageData, site: SiteIdentity): PageHead {
  switch (page.kind) {
    case 'home':
      return { title: page.title, description: site.description, path: '/' };
    case 'archive':
      return { title: page.title, description: `Every post of ${site.name}, month by month.`, path: '/plog' };
    case 'post':
      return { title: page.title, description: page.post.summary.trim() === '' ? site.description : page.post.summary, path: `/plog/${page.post.oid}` };
    case 'category':
      return { title: page.title, description: `The posts of ${site.name} in ${page.name}, newest first.`, path: categoryPath(page.name) };
    case 'search':
      return { title: page.title, description: `Search the posts of ${site.name}.`, path: `/${page.locale}/search` };
    default:
      return { title: page.title, description: site.description, path: undefined };
  }
}

/**
 * The head's meta tags: description, canonical link and Open Graph. `baseUrl` is the public base URL of the request
 * (publicBaseUrl), so the absolute URLs name the host the reader asked for when it is an allowed one.
 */
export function headTags(head: PageHead, site: SiteIdentity, baseUrl: string): string {
  const url = head.path === undefined ? undefined : `${baseUrl}${head.path}`;
  const meta = (attribute: 'name' | 'property', key: string, content: string) => `<meta ${attribute}="${key}" content="${escapeHtml(content)}">`;
  return (
    meta('name', 'description', head.description) +
    (url === undefined ? '' : `<link rel="canonical" href="${escapeHtml(url)}">`) +
    meta('property', 'og:site_name', site.name) +
    meta('property', 'og:type', head.path !== undefined && /^\/plog\/[^/]+$/.test(head.path) ? 'article' : 'website') +
    meta('property', 'og:title', head.title) +
    meta('property', 'og:description', head.description) +
    (url === undefined ? '' : meta('property', 'og:url', url)) +
    `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(site.name)}" href="${escapeHtml(`${baseUrl}/feed.xml`)}">` +
    `<link rel="icon" href="/favicon.ico" sizes="16x16">`
  );
}

/**
 * A post body whose code blocks a keyboard can reach and scroll: every `<pre>` opening tag gains `tabindex="0"`, a
 * region role and a label, unless it already has a tabindex. Bodies come from trusted admins; this only adds
 * attributes to a tag the body already opens, so it cannot add markup of its own.
 */
export function focusableCodeBlocks(html: string): string {
  return html.replace(/<pre(?=[\s>])([^>]*)>/gi, (tag: string, attributes: string) =>
    /\stabindex\s*=/i.test(attributes) ? tag : `<pre tabindex="0" role="region" aria-label="Code example"${attributes}>`,
  );
}
