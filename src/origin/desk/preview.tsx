import { renderToString } from 'react-dom/server';
import { renderDocument } from '../../renderer/document.js';
import { App } from '../../renderer/pages/views.js';
import type { SiteIdentity } from '../../renderer/site.js';
import type { PageData } from '../../renderer/types.js';
import type { Post, PublicComment } from '../store.js';

/** Who the preview shows the site as, and where its absolute links point: the front's own settings. */
export interface PreviewSite {
  /** `SITE_NAME`, `SITE_DESCRIPTION`, `SITE_FOOTER`, as the front shows them. */
  site: SiteIdentity;
  /** The site's first locale (`SITE_LOCALES`): the header's search box is in it. */
  locale: string;
  /** `PUBLIC_URL`, for the head's canonical and Open Graph links; the origin's own address without it. */
  baseUrl: string;
}

/** Where the fronts serve uploaded images (the spec's bypass prefix), and where the origin serves the same files. */
const FRONT_IMAGES = '/_render/image/';
const ORIGIN_IMAGES = '/api/v1/images/';

/**
 * The body with its uploaded images pointed at the origin: the preview is a frame of the desk, on the origin's
 * address, where `/_render/image/` is nobody's path (the fronts serve it). Only `src` and `srcset` values change,
 * and only their path prefix, so the markup is the renderer's otherwise.
 */
export function previewImages(html: string): string {
  return html.replace(/(\s(?:src|srcset)=")([^"]*)"/g, (_attribute, start: string, value: string) => `${start}${value.split(FRONT_IMAGES).join(ORIGIN_IMAGES)}"`);
}

/**
 * A post as readers will see it: the page the front serves, rendered by the renderer's own components (App, the post
 * view) and document with the site's style, without the client bundle (a preview runs no script). Pure.
 */
export function renderPostPreview(post: Post, comments: { count: number; items: PublicComment[] }, preview: PreviewSite): string {
  const page: PageData = { kind: 'post', title: `${post.title} · ${preview.site.name}`, post: { ...post, body_html: previewImages(post.body_html) }, comments };
  return renderDocument({
    bodyHtml: renderToString(<App page={page} site={preview.site} locale={preview.locale} />),
    bootstrap: { buildId: 'preview', locales: [preview.locale], page, site: preview.site },
    scriptUrl: undefined,
    baseUrl: preview.baseUrl,
  });
}
