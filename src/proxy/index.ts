export { createUpstreamHandler, type UpstreamHandler } from './upstream-handler.js';
export { UPSTREAM_DEFAULTS, type UpstreamOptions } from './options.js';
export { connectionTokens, endToEndPairs, forwardedFields, withVia, VIA_NAME } from './forwarding.js';
export { sendProxyError } from './error-answer.js';
export { PROXY_DEFAULTS, upstreamOrigin, validPathPrefix, type ProxyConfig } from './settings.js';
