import { escapeHtml } from '../html-escape.js';
import type { SiteIdentity } from './site.js';
import type { PageHead } from './pages/view.js';

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
