import { ERRORS } from '../../error-codes.js';
import { parsePostRepresentation } from '../post-representation.js';
import type { ContentStore, PostPage } from '../store.js';
import { parseOid } from '../validation.js';
import { ACTION_LABELS, type EditorAction, type PostState } from './editor-form.js';

/** A post as its editor sees it: whatever its state, with its approved comments (for its preview) and its state. */
export interface EditorPostPage extends PostPage {
  state: PostState;
}

/**
 * The stored post the editor opens, or undefined. The seam for post states: read it whatever its state (a draft too)
 * and with its state, here and nowhere else; until posts have one, every post is published.
 */
export function postForEditor(store: ContentStore, oid: string): EditorPostPage | undefined {
  const page = store.getPost(oid);
  return page === undefined ? undefined : { ...page, state: 'published' };
}

/** A save the editor asks for: the post's API fields (editor-form.ts apiFields), under `oid`. */
export interface EditorSave {
  action: Exclude<EditorAction, 'preview'>;
  /** The slug typed. */
  oid: string;
  /** The post being edited; undefined for a new post. */
  editing: string | undefined;
  fields: Record<string, unknown>;
}

/**
 * Stores what the editor's button asks, through the API's own validation (parsePostRepresentation) and store
 * (ContentStore.putPost): one path and one set of rules for the desk and `PUT /api/v1/plog/<oid>`. Answers the oid
 * saved. Throws the AppError of a refused save; nothing is stored then.
 *
 * The seam for post states and renames: Save draft, Schedule and Unpublish add their `state` (and `publish_at`) to
 * `fields`, and a changed slug calls the store's rename, here and nowhere else.
 */
export function saveFromEditor(store: ContentStore, save: EditorSave): string {
  const oid = parseOid(save.oid);
  if (save.action !== 'publish') throw ERRORS.DESK_ACTION_UNAVAILABLE(ACTION_LABELS[save.action]);
  if (save.editing !== undefined && save.editing !== oid) throw ERRORS.DESK_ACTION_UNAVAILABLE('Renaming a post (changing its slug)');
  store.putPost(oid, (current) => {
    if (save.editing === undefined && current !== undefined) throw ERRORS.DESK_SLUG_TAKEN(oid);
    return parsePostRepresentation(save.fields, { oid }, current);
  });
  return oid;
}
