// Files shown in the document view: an image, a sound or a film played in the page, a PDF opened in a tab,
// text shown as text (plain text and Markdown also edited, saved with If-Match like the Turtle editor),
// and the small pictures of images in a folder's listing. Bytes come from the owner's preview route:
// an `<img>` or `<video>` sends the login cookie but no CSRF header, which the resource server would
// treat as anonymous; the route serves only the kinds lib/preview-kind.ts allows, never HTML.

import { BASE, ldp } from './api.ts'
import { clear, confirmAction, h, readablePath, say, sayError } from './dom.ts'
import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import { MAX_PREVIEW_TEXT_BYTES, bareType, isEditableText, previewKind } from '../../src/lib/preview-kind.ts'
import { markSaved, markUnsaved } from './unsaved.ts'

const previewSrc = (path: string) => `${ADMIN_PATHS.preview}?path=${encodeURIComponent(path)}`
const nameOf = (path: string) => readablePath(path.split('/').pop() ?? '')

/** A folder listing's picture of an image (the browser scales it down: CSS limits its box), or nothing. */
export function thumbnail(item: { path: string; kind: string; contentType: string }): HTMLElement | undefined {
  if (item.kind !== 'binary' || previewKind(item.contentType) !== 'image') return undefined
  return h('img', { class: 'thumb', src: previewSrc(item.path), alt: '', loading: 'lazy', decoding: 'async' })
}

/**
 * The preview of the file `head` answered for (a GET whose body is read only for text), placed before
 * `actions`; an Edit button joins them for plain text and Markdown. `reopen` shows the document again after a save.
 */
export async function previewDocument(view: HTMLElement, actions: HTMLElement, path: string, head: Response, reopen: () => Promise<void>): Promise<void> {
  const type = head.headers.get('content-type') ?? ''
  const size = Number(head.headers.get('content-length') ?? NaN)
  const kind = previewKind(type)
  if (kind !== 'text' || size > MAX_PREVIEW_TEXT_BYTES) void head.body?.cancel()
  const src = previewSrc(path)
  const shown = kind === 'image' ? h('p', {}, h('img', { class: 'preview', src, alt: nameOf(path) }))
    : kind === 'video' ? h('p', {}, h('video', { class: 'preview', src, controls: true, preload: 'metadata' }))
    : kind === 'audio' ? h('p', {}, h('audio', { src, controls: true, preload: 'metadata' }))
    : kind === 'pdf' ? h('p', {}, h('a', { class: 'button', href: src, target: '_blank', rel: 'noopener' }, 'Open the PDF'))
    : kind === 'text' && !(size > MAX_PREVIEW_TEXT_BYTES) ? await textPreview(actions, path, type, head, reopen)
    : h('p', { class: 'muted' }, kind === 'text' ? 'This text is too long to show here; download it to read it.' : `This kind of file (${bareType(type) || 'unknown'}) is not shown here; download it to open it.`)
  view.insertBefore(shown, actions)
}

async function textPreview(actions: HTMLElement, path: string, type: string, head: Response, reopen: () => Promise<void>): Promise<HTMLElement> {
  const text = await head.text()
  if (isEditableText(type)) {
    const etag = head.headers.get('etag')
    const view = actions.parentElement!
    actions.append(h('button', { type: 'button', class: 'small', onclick: () => { textEditor(view, path, type, text, etag, reopen) } }, 'Edit'))
  }
  return h('pre', { class: 'preview-text', id: 'text-preview' }, text)
}

/** Plain text in a text box; Save replaces the file only if nobody changed it since it was opened (If-Match). */
function textEditor(view: HTMLElement, path: string, type: string, text: string, etag: string | null, reopen: () => Promise<void>): void {
  const name = nameOf(path)
  clear(view)
  const area = h('textarea', { id: 'plain-text', spellcheck: 'true' })
  area.value = text
  area.addEventListener('input', () => { if (area.value !== text) markUnsaved(`Your changes to ${name}`, true); else markSaved() })
  const save = async () => {
    await ldp('PUT', BASE + path, { headers: { 'content-type': type, ...(etag ? { 'if-match': etag } : {}) }, body: area.value }, `Saving ${name}`)
    markSaved()
    await reopen()
    say(`Saved ${name}`)
  }
  view.append(h('h2', {}, `Edit ${name}`), h('label', { for: 'plain-text' }, bareType(type) === 'text/markdown' ? 'Markdown' : 'Text'), area,
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => { void save().catch(sayError) } }, 'Save'),
      h('button', { type: 'button', class: 'secondary', onclick: () => {
        if (area.value !== text && !confirmAction(`Discard your changes to ${name}? They have not been saved.`)) return
        markSaved()
        void reopen().catch(sayError)
      } }, 'Cancel')))
  area.focus()
}
