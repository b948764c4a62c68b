/**
 * HTTP pieces every server of the stack shares: the error mapper, the client address behind trusted proxies, the
 * public base URL rule, request and upstream-answer bounds and UTF-8 checks of request bodies. Below every feature.
 */
export { createApiApp, type ApiDeps } from './api-app.js';
export { answerError, installErrorMapper } from './error-mapper.js';
export { clientAddress, DEFAULT_TRUSTED_PROXIES, trustedProxyCheck, validProxyEntry, type TrustCheck } from './client-address.js';
export { publicBaseMemo, type PublicBaseOptions } from './public-base-url.js';
export { REQUEST_BOUNDS, urlTooLong } from './request-bounds.js';
export { discardBody, drainBody, readBoundedText, PURGE_ANSWER_MAX_BYTES } from './upstream-body.js';
export { characterCount, formUtf8Problem, jsonUtf8Problem } from './utf8-input.js';
export { HEALTH_PATH, METRICS_PATH, READY_PATH } from './operations-paths.js';
