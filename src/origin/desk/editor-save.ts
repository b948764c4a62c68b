import { ERRORS } from '../../error-codes.js';
import { parsePostRepresentation } from '../post-representation.js';
import type { PostState } from '../publication.js';
import type { ContentStore, EditorPostPage as StoredEditorPage } from '../store.js';
import { parseOid } from '../validation.js';
import type { EditorAction } from './editor-form.js';

/** A post as its editor sees it: whatever its state, with its approved comments (for its preview) and its state. */
export interface EditorPostPage extends StoredEditorPage {
  state: PostState;
}

/** The stored post the editor opens, whatever its state (a draft too), or undefined. */
export function postForEditor(store: ContentStore, oid: string): EditorPostPage | undefined {
  const page = store.getPostForEditor(oid);
  return page === undefined ? undefined : { ...page, state: page.post.state };
}

/** A save the editor asks for: the post's API fields (editor-form.ts apiFields), under `oid`. */
export interface EditorSave {
  action: Exclude<EditorAction, 'preview'>;
  /** The slug typed. */
  oid: string;
  /** The post being edited; undefined for a new post. */
  editing: string | undefined;
  fields: Record<string, unknown>;
  /** The desk user saving, named in the revision. */
  by: string;
  now: Date;
}

/** The state each button leaves the post in; Schedule's time is the form's Publish at (`pub_date`). */
function stateFields(action: EditorSave['action'], fields: Record<string, unknown>): Record<string, unknown> {
  switch (action) {
    case 'publish':
      return { state: 'published' };
    case 'schedule':
      return { state: 'scheduled', publish_at: fields.pub_date };
    case 'save-draft':
    case 'unpublish':
      return { state: 'draft' };
  }
}

/**
 * Stores what the editor's button asks, through the API's own validation (parsePostRepresentation) and store
 * (ContentStore.putPost): one path and one set of rules for the desk and `PUT /api/v1/plog/<oid>`. A changed slug
 * renames the post first (its old address then answers 301), once the fields are known to be valid, so a refused save
 * moves nothing. Answers the oid saved. Throws the AppError of a refused save; nothing is stored then.
 */
export function saveFromEditor(store: ContentStore, save: EditorSave): string {
  const oid = parseOid(save.oid);
  const fields = { ...save.fields, ...stateFields(save.action, save.fields) };
  const renaming = save.editing !== undefined && save.editing !== oid;
  if (renaming) {
    const editing = save.editing as string;
    const stored = store.getPostForEditor(editing);
    if (stored === undefined) throw ERRORS.POST_NOT_FOUND(editing);
    parsePostRepresentation(fields, { oid }, stored.post, save.now);
    const outcome = store.renamePost(editing, oid);
    if (outcome.status === 'taken') throw ERRORS.DESK_SLUG_TAKEN(oid);
    if (outcome.status === 'not-found') throw ERRORS.POST_NOT_FOUND(editing);
  }
  store.putPost(
    oid,
    (current) => {
      if (save.editing === undefined && current !== undefined) throw ERRORS.DESK_SLUG_TAKEN(oid);
      return parsePostRepresentation(fields, { oid }, current, save.now);
    },
    { by: save.by },
  );
  return oid;
}
