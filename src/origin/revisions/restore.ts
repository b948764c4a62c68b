import { ERRORS } from '../../error-codes.js';
import type { ContentStore } from '../store.js';
import type { PostInput } from '../validation.js';

/**
 * Saves revision `n` of a post again, as a new revision (with its purge and search jobs, like any save): its title,
 * source, format, summary, categories and date. Anything else the post has (its state, when posts have one) stays as
 * it is: restoring old words does not publish or unpublish. Answers the new revision's number; a 404 when the post or
 * the revision is not there.
 */
export function restoreRevision(store: ContentStore, oid: string, n: number, by: string): number {
  const saved = store.patchPost(
    oid,
    (current): PostInput => {
      const revision = store.revisions.get(oid, n);
      if (revision === undefined) throw ERRORS.REVISION_NOT_FOUND(oid, n);
      const { title, format, body, summary, categories, pub_date } = revision;
      const { publish_at, ...kept } = current;
      return { ...kept, ...(publish_at === null ? {} : { publish_at }), title, format, body, summary, categories, pub_date };
    },
    { by, restoredFrom: n },
  );
  if (!saved) throw ERRORS.POST_NOT_FOUND(oid);
  return store.revisions.list(oid, { before: Number.MAX_SAFE_INTEGER, limit: 1 }).items[0]?.n ?? n;
}
