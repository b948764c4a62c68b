import type { ReactNode } from 'react';
import { LIMITS, OID_MAX_LENGTH } from '../validation.js';
import { ACTION_LABELS, actionsFor, type EditorField, type EditorValues, type FieldProblem, type PostState } from './editor-form.js';
import { CSRF_FIELD, deskDocument, DeskPage } from './layout.js';

/** The editor beside its preview on a wide screen, one above the other on a narrow one. */
const EDITOR_STYLE = `body{max-width:96rem}.editor-layout{display:grid;gap:1.5rem}
@media (min-width:70rem){.editor-layout{grid-template-columns:minmax(0,1fr) minmax(0,1fr)}.editor-preview{position:sticky;top:0;align-self:start}}
.editor-form{display:grid;gap:.35rem}.editor-form label{font-weight:600;margin-top:.6rem}.editor-form .hint{margin:0}
.editor-form textarea#body{min-height:24rem;font-family:ui-monospace,monospace;font-size:.95em}.editor-form.dragging textarea#body{outline:3px dashed var(--accent)}
.field-error{margin:0;font-weight:600}.editor-buttons{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem}
.editor-preview iframe{width:100%;height:80vh;border:1px solid var(--line);border-radius:6px;background:#fff}
.alt-warning{border-left:4px solid var(--error);padding:.2rem .75rem}.editor-links{display:flex;flex-wrap:wrap;gap:.5rem 1rem}`;

export interface EditorPageProps {
  csrfToken: string;
  /** The desk's script, when it is built (`/admin/static/editor-<hash>.js`). */
  script: string | undefined;
  /** The post being edited (its oid as stored), or undefined for a new post. */
  editing: string | undefined;
  state: PostState | undefined;
  values: EditorValues;
  /** Problems of a refused save, each shown next to its field. */
  problems: readonly FieldProblem[];
  /** A line for the status region: "Published." after a save. */
  notice: string | undefined;
  /** The page as readers will see it, for the preview frame; undefined shows a note instead. */
  previewHtml: string | undefined;
  /** Images of the body without alt text (`![](…)`), named by their address. */
  imagesWithoutAlt: readonly string[];
}

/** The ids of a field's hint and error, which its control names in aria-describedby. */
function describedBy(field: EditorField, hint: boolean, problems: readonly FieldProblem[]): string | undefined {
  const ids = [...(problems.some((problem) => problem.field === field) ? [`${field}-error`] : []), ...(hint ? [`${field}-hint`] : [])];
  return ids.length === 0 ? undefined : ids.join(' ');
}

function FieldError(props: { field: EditorField; problems: readonly FieldProblem[] }): ReactNode {
  const messages = props.problems.filter((problem) => problem.field === props.field).map((problem) => problem.message);
  if (messages.length === 0) return null;
  return (
    <p className="form-error field-error" id={`${props.field}-error`}>
      {messages.join(' ')}
    </p>
  );
}

/** A labelled one-line field with its hint and error. */
function TextField(props: {
  field: EditorField;
  label: string;
  value: string;
  problems: readonly FieldProblem[];
  hint?: string;
  maxLength?: number;
  required?: boolean;
  type?: string;
  extra?: Record<string, string | boolean>;
}): ReactNode {
  const invalid = props.problems.some((problem) => problem.field === props.field);
  // After a refused save, the first field to change has the focus: the keyboard and the screen reader start there.
  const focus = props.problems.find((problem) => problem.field !== 'form')?.field === props.field;
  return (
    <>
      <label htmlFor={props.field}>{props.label}</label>
      {props.hint === undefined ? null : (
        <p className="hint" id={`${props.field}-hint`}>
          {props.hint}
        </p>
      )}
      <input
        id={props.field}
        name={props.field}
        type={props.type ?? 'text'}
        defaultValue={props.value}
        maxLength={props.maxLength}
        required={props.required}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(props.field, props.hint !== undefined, props.problems)}
        autoFocus={focus || undefined}
        {...props.extra}
      />
      <FieldError field={props.field} problems={props.problems} />
    </>
  );
}

function AltWarning(props: { missing: readonly string[] }): ReactNode {
  return (
    <div id="alt-warning" className="alt-warning" role="status" hidden={props.missing.length === 0}>
      {props.missing.length === 0 ? null : (
        <>
          <p>
            {props.missing.length === 1 ? 'An image has no alt text' : `${props.missing.length} images have no alt text`}: write what each shows
            between the brackets of <code>![…](…)</code>, so readers who cannot see it are told.
          </p>
          <ul>
            {props.missing.map((src, index) => (
              <li key={`${index}-${src}`}>
                <code>{src}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function EditorForm(props: EditorPageProps): ReactNode {
  const { values, problems } = props;
  const action = props.editing === undefined ? '/admin/posts/new' : `/admin/posts/${props.editing}`;
  const formProblems = problems.filter((problem) => problem.field === 'form');
  const bodyInvalid = problems.some((problem) => problem.field === 'body');
  return (
    <form className="editor-form" id="editor" method="post" action={action} data-editing={props.editing}>
      <input type="hidden" name={CSRF_FIELD} value={props.csrfToken} />
      {problems.length === 0 ? null : (
        <p className="form-error" role="alert" id="form-error">
          {formProblems.length === problems.length
            ? `Not saved: ${formProblems.map((problem) => problem.message).join(' ')}`
            : `Not saved: ${problems.length === 1 ? 'a field needs' : `${problems.length} fields need`} changing, as said next to ${problems.length === 1 ? 'it' : 'them'}. ${formProblems.map((problem) => problem.message).join(' ')}`.trim()}
        </p>
      )}
      <TextField field="title" label="Title" value={values.title} problems={problems} maxLength={LIMITS.titleLength} required />
      <TextField
        field="slug"
        label="Slug"
        value={values.slug}
        problems={problems}
        hint="The post's address, /plog/<slug>: a-z, 0-9 and single hyphens."
        maxLength={OID_MAX_LENGTH}
        required
        extra={{ autoCapitalize: 'none', spellCheck: false, pattern: '[a-z0-9]+(-[a-z0-9]+)*' }}
      />
      <label htmlFor="body">Body</label>
      <p className="hint" id="body-hint">
        {values.format === 'markdown'
          ? 'Markdown, as GitHub writes it: # headings, lists, tables, ``` code blocks, [links](https://…). Drop an image here to upload it.'
          : 'HTML, as this post was written. Choose Markdown below to write the body in Markdown.'}
      </p>
      <textarea
        id="body"
        name="body"
        defaultValue={values.body}
        rows={20}
        maxLength={LIMITS.bodyLength}
        required
        spellCheck
        aria-invalid={bodyInvalid || undefined}
        aria-describedby={describedBy('body', true, problems)}
        autoFocus={problems.find((problem) => problem.field !== 'form')?.field === 'body' || undefined}
      />
      <FieldError field="body" problems={problems} />
      <AltWarning missing={props.imagesWithoutAlt} />
      <div id="image-tools" hidden>
        <label htmlFor="image">Add image</label>
        <input id="image" type="file" accept="image/jpeg,image/png,image/gif,image/webp,image/avif" />
      </div>
      {props.editing !== undefined && values.format === 'html' ? (
        <>
          <label htmlFor="format">Format</label>
          <select id="format" name="format" defaultValue={values.format}>
            <option value="html">HTML</option>
            <option value="markdown">Markdown</option>
          </select>
          <FieldError field="format" problems={problems} />
        </>
      ) : (
        <input type="hidden" name="format" value={values.format} />
      )}
      <TextField field="categories" label="Categories" value={values.categories} problems={problems} hint="Separated by commas: Web, SQLite." maxLength={400} />
      <label htmlFor="summary">Summary</label>
      <p className="hint" id="summary-hint">
        Optional: what search results and link previews say of the post.
      </p>
      <textarea id="summary" name="summary" defaultValue={values.summary} rows={2} maxLength={LIMITS.summaryLength} aria-describedby={describedBy('summary', true, problems)} />
      <FieldError field="summary" problems={problems} />
      <TextField
        field="publish_at"
        label="Publish at"
        type="datetime-local"
        value={values.publishAt}
        problems={problems}
        hint={`In ${values.zone === 'UTC' ? 'UTC' : `your time zone (${values.zone})`}; stored in UTC. Empty: now.`}
        extra={{ step: '60' }}
      />
      <input type="hidden" name="zone" value={values.zone} />
      <div className="editor-buttons">
        {actionsFor(props.state).map((name) => (
          <button key={name} type="submit" name="action" value={name} className={name === 'preview' || name === 'unpublish' ? 'secondary' : undefined} formNoValidate={name === 'preview' || undefined}>
            {ACTION_LABELS[name]}
          </button>
        ))}
      </div>
      <p className="hint" id="shortcut-hint">
        Ctrl+S (⌘S on a Mac) does what the first button does.
      </p>
    </form>
  );
}

/** The editor of a post (new or stored) with its preview through the renderer's own page. */
export function editorPage(props: EditorPageProps): string {
  const title = props.editing === undefined ? 'New post' : `Edit “${props.values.title}”`;
  return deskDocument(
    props.editing === undefined ? 'New post' : `Edit ${props.values.title}`,
    <DeskPage title={title} section="posts" csrfToken={props.csrfToken}>
      <p id="editor-status" className="form-ok" role="status">
        {props.notice}
      </p>
      {props.editing === undefined ? null : (
        <p className="editor-links">
          <a href={`/admin/posts/${props.editing}/preview`}>Open the preview</a>
          <a href={`/admin/posts/${props.editing}/revisions`}>Revisions</a>
        </p>
      )}
      <div className="editor-layout">
        <EditorForm {...props} />
        <section className="editor-preview" aria-labelledby="preview-heading">
          <h2 id="preview-heading">Preview</h2>
          <p className="hint" id="preview-hint">
            {props.previewHtml === undefined ? 'Press Preview to see the post as readers will.' : 'The post as readers will see it, as the site renders it.'}
          </p>
          <iframe id="preview" title="Preview of the post as readers will see it" sandbox="" srcDoc={props.previewHtml ?? ''} />
        </section>
      </div>
    </DeskPage>,
    { style: EDITOR_STYLE, ...(props.script === undefined ? {} : { script: props.script }) },
  );
}
