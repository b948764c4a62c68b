export { createRenderer, RENDERER_DEFAULTS, type RendererHandler, type RendererOptions } from './handler.js';
export { buildClient, loadClientBuild, type BuildClientOptions, type ClientBuild, type ClientManifest } from './build.js';
export { OriginError } from './origin-client.js';
export { matchPage, dataUrl, parseDataUrl, DEFAULT_LOCALE, DATA_PREFIX, STATIC_PREFIX, type PageRoute } from './routes.js';
export type { PageData, Bootstrap } from './types.js';
export { createCommentRoute, matchCommentPath, type CommentRouteOptions } from './comment-route.js';
export type { SiteIdentity } from './site.js';
