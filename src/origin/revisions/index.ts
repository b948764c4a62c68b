/** Addresses that change (slug history, rename) and revisions of every save: the origin's side of both. */
export { API_SAVE, REVISION_DEFAULTS, RevisionLog, type Revision, type RevisionLogOptions, type RevisionSummary, type SaveContext } from './revision-log.js';
export { SlugHistory, type RenameOutcome } from './slug-history.js';
export { mergePurgeTargets, parseRenameBody, parseRevisionNumber, parseRevisionQuery, parseSlug, REVISION_PAGE, suggestSlug } from './policy.js';
export { postNotFound, registerRevisionApi, sendMoved, type RevisionApiOptions } from './api.js';
export { restoreRevision } from './restore.js';
export { registerRevisionDesk, type RevisionDeskDeps } from './desk.js';
export { hasChanges, LINE_DIFF_DEFAULTS, lineDiff, revisionText, type DiffRow, type LineDiffOptions } from './diff.js';
