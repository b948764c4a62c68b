import { ALT_PLACEHOLDER, categoryList } from '../editor-form.js';

/*
 * The desk's script, in the browser: the editor's live preview, Ctrl/Cmd+S, the unsaved-changes warning, the
 * publication time in the browser's zone, and image upload by the file button or by dropping onto the body. Plain DOM;
 * every page works without it as plain forms. Bundled by desk-script.ts.
 */

/** Typing pauses this long before the preview is asked for: one request per burst, not per key. */
const PREVIEW_DEBOUNCE_MS = 300;
const UPLOAD_PATH = '/admin/images';
const PREVIEW_PATH = '/admin/preview';
/** The header the preview answers the images without alt text in (URI-encoded JSON). */
const MISSING_ALT_HEADER = 'x-images-without-alt';

function byId<T extends HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

const form = byId<HTMLFormElement>('editor');
const status = byId<HTMLElement>('editor-status');

function say(message: string): void {
  if (status === null) return;
  // Emptied first, so the same message said twice is announced twice.
  status.textContent = '';
  window.setTimeout(() => {
    status.textContent = message;
  }, 50);
}

function field<T extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(name: string): T | null {
  return form?.elements.namedItem(name) as T | null;
}

/** The post's address made from its title while the editor has not typed one: `Café au lait` → `cafe-au-lait`. */
function slugOf(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

/** The wall clock of the browser for an instant, as a datetime-local value. */
function localValue(instant: Date): string {
  const shifted = new Date(instant.getTime() - instant.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

/** The page is served with times in UTC; they are shown, and sent back, in the browser's zone with its name. */
function useBrowserZone(): void {
  const publishAt = field<HTMLInputElement>('publish_at');
  const zone = field<HTMLInputElement>('zone');
  const name = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (publishAt === null || zone === null || typeof name !== 'string' || name === '' || zone.value !== 'UTC') return;
  if (publishAt.value !== '') {
    const instant = new Date(`${publishAt.value}Z`);
    if (!Number.isNaN(instant.getTime())) publishAt.value = localValue(instant);
  }
  zone.value = name;
  const hint = byId('publish_at-hint');
  if (hint !== null) hint.textContent = `In your time zone (${name}); stored in UTC. Empty: now.`;
}

function csrfToken(): string {
  return field<HTMLInputElement>('_csrf')?.value ?? '';
}

/** The form as the preview takes it. */
function previewRequest(): Record<string, unknown> {
  const value = (name: string) => field(name)?.value ?? '';
  const publishAt = value('publish_at');
  const instant = publishAt === '' ? new Date() : new Date(publishAt);
  return {
    oid: value('slug'),
    title: value('title'),
    body: value('body'),
    format: value('format') === 'html' ? 'html' : 'markdown',
    summary: value('summary'),
    categories: categoryList(value('categories')),
    pub_date: Number.isNaN(instant.getTime()) ? new Date().toISOString() : instant.toISOString(),
  };
}

function showMissingAlt(missing: string[]): void {
  const warning = byId('alt-warning');
  if (warning === null) return;
  warning.replaceChildren();
  warning.hidden = missing.length === 0;
  if (missing.length === 0) return;
  const line = document.createElement('p');
  line.textContent = `${missing.length === 1 ? 'An image has no alt text' : `${missing.length} images have no alt text`}: write what each shows between the brackets of ![…](…), so readers who cannot see it are told.`;
  const list = document.createElement('ul');
  for (const src of missing) {
    const item = document.createElement('li');
    const code = document.createElement('code');
    code.textContent = src;
    item.append(code);
    list.append(item);
  }
  warning.append(line, list);
}

/** Asks for the preview of the form as it is now; a newer request cancels an older one, so the latest answer wins. */
function createPreview(frame: HTMLIFrameElement): () => void {
  let timer: number | undefined;
  let running: AbortController | undefined;
  const refresh = async () => {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    try {
      const response = await fetch(PREVIEW_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken() },
        body: JSON.stringify(previewRequest()),
        signal: controller.signal,
        credentials: 'same-origin',
      });
      const html = await response.text();
      if (controller !== running) return;
      if (!response.ok) {
        say(response.status === 401 || response.status === 403 ? 'The preview stopped: your session ended or the page is out of date. Save your work by reloading after logging in.' : `The preview could not be updated (${response.status}).`);
        return;
      }
      frame.srcdoc = html;
      const missing = response.headers.get(MISSING_ALT_HEADER);
      if (missing !== null) showMissingAlt(JSON.parse(decodeURIComponent(missing)) as string[]);
    } catch (error) {
      if (controller === running && !(error instanceof DOMException && error.name === 'AbortError')) say('The preview could not be updated: the desk is not answering.');
    }
  };
  return () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void refresh(), PREVIEW_DEBOUNCE_MS);
  };
}

/** Puts `text` at the cursor of the body, selecting `selectStart`..`selectEnd` of it. */
function insertAtCursor(body: HTMLTextAreaElement, text: string, selectStart: number, selectEnd: number): void {
  const start = body.selectionStart;
  body.focus();
  body.setRangeText(text, start, body.selectionEnd, 'end');
  body.setSelectionRange(start + selectStart, start + selectEnd);
  body.dispatchEvent(new Event('input', { bubbles: true }));
}

async function upload(file: File, body: HTMLTextAreaElement): Promise<void> {
  say(`Uploading ${file.name}…`);
  try {
    const response = await fetch(UPLOAD_PATH, {
      method: 'POST',
      headers: { 'content-type': file.type || 'application/octet-stream', 'x-csrf-token': csrfToken() },
      body: file,
      credentials: 'same-origin',
    });
    // 201 (or 200 for a file uploaded before) with the image's `src`; an error as the JSON APIs answer it, `{ error }`.
    const answer = (await response.json().catch(() => ({}))) as { src?: unknown; error?: unknown };
    if (!response.ok || typeof answer.src !== 'string') {
      say(`${file.name} was not uploaded: ${typeof answer.error === 'string' ? answer.error : `the desk answered ${response.status}`}.`);
      return;
    }
    const prefix = body.selectionStart > 0 && body.value[body.selectionStart - 1] !== '\n' ? '\n\n' : '';
    insertAtCursor(body, `${prefix}![${ALT_PLACEHOLDER}](${answer.src})\n`, prefix.length + 2, prefix.length + 2 + ALT_PLACEHOLDER.length);
    say(`${file.name} added. Type its alt text: what the image shows.`);
  } catch {
    say(`${file.name} was not uploaded: the desk is not answering.`);
  }
}

function setUpImages(body: HTMLTextAreaElement): void {
  const tools = byId('image-tools');
  const input = byId<HTMLInputElement>('image');
  if (tools === null || input === null || form === null) return;
  tools.hidden = false;
  input.addEventListener('change', () => {
    for (const file of input.files ?? []) void upload(file, body);
    input.value = '';
  });
  body.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    form.classList.add('dragging');
  });
  body.addEventListener('dragleave', () => form.classList.remove('dragging'));
  body.addEventListener('drop', (event) => {
    const files = [...(event.dataTransfer?.files ?? [])].filter((file) => file.type.startsWith('image/'));
    form.classList.remove('dragging');
    if (files.length === 0) return;
    event.preventDefault();
    for (const file of files) void upload(file, body);
  });
}

function setUpEditor(editor: HTMLFormElement): void {
  useBrowserZone();
  const title = field<HTMLInputElement>('title');
  const slug = field<HTMLInputElement>('slug');
  const body = field<HTMLTextAreaElement>('body');
  const frame = byId<HTMLIFrameElement>('preview');
  // A new post's slug follows its title until the editor types one.
  let slugTyped = editor.dataset.editing !== undefined || (slug?.value ?? '') !== '';
  slug?.addEventListener('input', () => {
    slugTyped = true;
  });
  title?.addEventListener('input', () => {
    if (!slugTyped && slug !== null) slug.value = slugOf(title.value);
  });

  let dirty = false;
  const preview = frame === null ? undefined : createPreview(frame);
  editor.addEventListener('input', (event) => {
    if ((event.target as Element | null)?.id === 'image') return;
    dirty = true;
    preview?.();
  });
  editor.addEventListener('change', () => preview?.());
  editor.addEventListener('submit', () => {
    dirty = false;
  });
  window.addEventListener('beforeunload', (event) => {
    if (!dirty) return;
    event.preventDefault();
    event.returnValue = '';
  });
  // Ctrl+S, ⌘S on a Mac: what the first button does (Save draft, or Publish for a published post).
  document.addEventListener('keydown', (event) => {
    if (event.key.toLowerCase() !== 's' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    event.preventDefault();
    const first = editor.querySelector<HTMLButtonElement>('.editor-buttons button');
    if (first !== null) editor.requestSubmit(first);
  });
  if (body !== null) setUpImages(body);
  const hint = byId('preview-hint');
  if (hint !== null && frame !== null) hint.textContent = 'The post as readers will see it, as the site renders it; it follows your typing.';
  if (frame !== null && frame.srcdoc === '') preview?.();
}

if (form !== null) setUpEditor(form);
