/** Comment moderation: the queue, batch approve and delete, and the rule list new comments are checked against. */
export { registerModerationApi, type ModerationApiDeps } from './api.js';
export { registerModerationDesk, siteBase, type ModerationDeskDeps } from './desk.js';
export { BATCH_MAX_IDS } from './input.js';
export { ANY_LINK, RULE_LIMITS, describeRule, judge, normaliseText, parseRuleInput, type Rule, type RuleInput, type Verdict } from './rules.js';
export { ModerationStore, MODERATION_DEFAULTS, type BatchResult, type ModerationOptions, type QueuedComment, type Receipt } from './store.js';
