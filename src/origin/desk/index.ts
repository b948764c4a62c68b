/** The editor's desk at `/admin/` on the origin: accounts, sessions and the guard every desk route sits behind. */
export { registerDesk, DESK_DEFAULTS, type DeskOptions } from './routes.js';
export { AccountStore, type DeskSession } from './accounts.js';
export { CSRF_HEADER, type DeskGuard } from './guard.js';
export { CSRF_FIELD } from './pages.js';
export { registerEditorDesk, MISSING_ALT_HEADER, type EditorDeskOptions } from './editor-routes.js';
export type { PreviewSite } from './preview.js';
export { PASSWORD_LIMITS, PASSWORD_RULE, USER_NAME_RULE, passwordProblem, userNameProblem } from './credentials.js';
export { SCRYPT_DEFAULTS, type ScryptParams } from './password-hash.js';
export type { SessionLifetime } from './session-policy.js';
