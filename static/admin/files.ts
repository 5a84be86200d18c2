// Files: walk containers a page at a time, open and edit documents, create, rename and move, delete into the trash and restore (uploads: upload.ts).

import { ApiError, BASE, api, ldp } from './api.ts'
import { askText, clear, confirmAction, formatBytes, formatDate, h, readablePath, say, sayError } from './dom.ts'
import { turtleView } from './turtle-view.ts'
import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import { uploadPanel } from './upload.ts'
import { markSaved, markUnsaved } from './unsaved.ts'
import { previewDocument, thumbnail } from './preview.ts'

interface Item { path: string; url: string; kind: 'container' | 'rdf' | 'binary'; contentType: string; size: number; modified: string }
interface Listing { path: string; url: string; count: number; countIsExact: boolean; limit: number; next: string | null; prev: string | null; items: Item[] }
/**
 * Which page to ask for: after or before a member (a cursor, so pages stay put while the folder changes),
 * and where its first row stands, counted by the pages walked (shown only, never sent).
 */
interface PageAt { after?: string; before?: string; start: number }
const FIRST_PAGE: PageAt = { start: 0 }

const nameOf = (path: string) => readablePath(path.replace(/\/$/, '').split('/').pop() ?? '') || 'Home'
const fileHref = (path: string) => `#/files${path}`
const KIND_LABEL = { container: 'Folder', rdf: 'RDF document', binary: 'File' } as const

/** Home / a / b: every ancestor a link, the current one marked. */
export function breadcrumbs(path: string): HTMLElement {
  const parts = path.split('/').filter((p) => p !== '')
  const items = [h('li', {}, h('a', { href: fileHref('/') }, 'Home'))]
  let at = '/'
  parts.forEach((p, i) => {
    const last = i === parts.length - 1
    at += p + (last && !path.endsWith('/') ? '' : '/')
    items.push(h('li', {}, last ? h('span', { 'aria-current': 'page' }, readablePath(p)) : h('a', { href: fileHref(at) }, readablePath(p))))
  })
  return h('nav', { 'aria-label': 'Breadcrumbs' }, h('ol', { class: 'crumbs' }, items))
}

export async function showFiles(view: HTMLElement, path: string): Promise<void> {
  if (path.endsWith('/')) return showContainer(view, path)
  return showDocument(view, path)
}

async function showContainer(view: HTMLElement, path: string): Promise<void> {
  const listing = h('div', { id: 'listing' })
  await fillListing(listing, path, FIRST_PAGE)
  clear(view)
  const refresh = () => fillListing(listing, path, FIRST_PAGE)
  view.append(breadcrumbs(path), h('h2', {}, path === '/' ? 'Your files' : nameOf(path)), listing, uploadPanel(path, refresh), newFolderPanel(path))
  if (path === '/') view.append(await trashPanel(refresh))
}

/** The members table with its pager; redrawn alone after an upload or a delete, so the panels keep their state. */
async function fillListing(listing: HTMLElement, path: string, at: PageAt): Promise<void> {
  const cursor = at.after !== undefined ? `&after=${encodeURIComponent(at.after)}` : at.before !== undefined ? `&before=${encodeURIComponent(at.before)}` : ''
  const list = await api<Listing>('GET', `/browse?path=${encodeURIComponent(path)}${cursor}`, undefined, `Opening ${path}`)
  // A page reached backwards ends where the one after it began; one that has nothing before it starts the folder.
  const start = list.prev === null ? 0 : at.before !== undefined ? Math.max(0, at.start - list.items.length) : at.start
  const total = `${list.countIsExact ? '' : 'more than '}${list.count.toLocaleString()}`
  const pager = (): HTMLElement | string => {
    if (list.next === null && list.prev === null) return ''
    const go = (to: PageAt) => () => { void fillListing(listing, path, to).catch(sayError) }
    return h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'small secondary', disabled: list.prev === null, onclick: go({ before: list.prev ?? '', start }) }, 'Previous page'),
      h('span', { class: 'muted' }, `${start + 1}–${start + list.items.length} of ${total}`),
      h('button', { type: 'button', class: 'small secondary', disabled: list.next === null, onclick: go({ after: list.next ?? '', start: start + list.items.length }) }, 'Next page'))
  }
  const rows = list.items.map((it) => h('tr', {},
    h('td', { 'data-label': 'Name' }, thumbnail(it), h('a', { href: fileHref(it.path) }, nameOf(it.path) + (it.kind === 'container' ? '/' : ''))),
    h('td', { 'data-label': 'Type' }, it.kind === 'binary' ? it.contentType : KIND_LABEL[it.kind]),
    h('td', { 'data-label': 'Size' }, it.kind === 'container' ? '—' : formatBytes(it.size)),
    h('td', { 'data-label': 'Modified' }, formatDate(it.modified)),
    h('td', {}, h('div', { class: 'actions' },
      h('a', { href: `#/share${it.path}`, class: 'small', 'aria-label': `Share ${nameOf(it.path)}` }, 'Share'),
      h('button', { type: 'button', class: 'small secondary', 'aria-label': `Rename ${nameOf(it.path)}`, onclick: () => { void rename(it, () => fillListing(listing, path, at)) } }, 'Rename'),
      h('button', { type: 'button', class: 'small secondary', 'aria-label': `Move ${nameOf(it.path)} to another folder`, onclick: () => { void moveTo(it, () => fillListing(listing, path, at)) } }, 'Move to…'),
      h('button', { type: 'button', class: 'small secondary', 'aria-label': `Delete ${nameOf(it.path)}`, onclick: () => { void remove(it, () => fillListing(listing, path, at)) } }, 'Delete')))))
  listing.replaceChildren(
    h('p', { class: 'muted' }, `${total} item${list.count === 1 && list.countIsExact ? '' : 's'} · `, h('a', { href: `#/share${path}` }, 'Who can access this folder')),
    pager(),
    h('div', { class: 'table-wrap' }, h('table', { class: 'stack' },
      h('caption', { class: 'visually-hidden' }, `Contents of ${path}`),
      h('thead', {}, h('tr', {}, ...['Name', 'Type', 'Size', 'Modified'].map((c) => h('th', { scope: 'col' }, c)), h('th', { scope: 'col' }, h('span', { class: 'muted' }, 'Actions')))),
      h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: '5', class: 'muted' }, 'This folder is empty'))))),
    pager())
}

/** Delete keeps the item in the trash 30 days (Restore on the Home folder); a folder is counted first, and the question says how many items go. */
async function remove(it: Item, after: () => Promise<void>): Promise<void> {
  const name = nameOf(it.path)
  const kept = 'It is kept in the trash for 30 days.'
  try {
    let count: number | undefined
    if (it.kind === 'container') {
      count = (await api<{ count: number }>('GET', `/tree/count?path=${encodeURIComponent(it.path)}`, undefined, `Counting what is in ${name}`)).count
      const question = count === 0 ? `Delete the folder "${name}"?` : `Delete "${name}" and the ${count.toLocaleString()} item${count === 1 ? '' : 's'} in it?`
      if (!confirmAction(`${question} ${kept}`)) return
    } else if (!confirmAction(`Delete "${name}"? ${kept}`)) return
    try {
      await api('POST', '/trash', { path: it.path, ...(count !== undefined ? { count } : {}) }, `Deleting ${name}`)
    } catch (err) {
      // Larger than the trash keeps: only for good, and only if the owner says so.
      if (!(err instanceof ApiError && err.status === 413) || count === undefined) throw err
      if (!confirmAction(`"${name}" holds too many items for the trash. Delete it and the ${count.toLocaleString()} items in it for good? This cannot be undone.`)) return
      await api('DELETE', `/tree?path=${encodeURIComponent(it.path)}&count=${count}`, undefined, `Deleting ${name}`)
    }
    await after()
    document.dispatchEvent(new Event(TRASH_CHANGED))
    say(`Deleted ${name}`)
  } catch (err) { sayError(err) }
}

/** Told on the document after a Delete, so a trash panel on the screen shows the new item. */
const TRASH_CHANGED = 'solopod:trash-changed'

interface TrashItem { id: string; path: string; kind: Item['kind']; count: number; deletedAt: number; purgeAt: number }

/** The trash, on the Home folder: what Delete kept, newest first, each with Restore. */
async function trashPanel(refresh: () => Promise<void>): Promise<HTMLElement> {
  const panel = h('section', { class: 'panel', 'aria-labelledby': 'trash-h' })
  const fill = async (): Promise<void> => {
    const items = await api<TrashItem[]>('GET', '/trash', undefined, 'Opening the trash')
    const restore = (t: TrashItem) => async () => {
      try {
        await api('POST', `/trash/${encodeURIComponent(t.id)}/restore`, undefined, `Restoring ${readablePath(t.path)}`)
        await Promise.all([fill(), refresh()])
        say(`Restored ${readablePath(t.path)}`)
      } catch (err) { sayError(err) }
    }
    const rows = items.map((t) => h('li', {},
      h('span', {}, `${readablePath(t.path)}${t.kind === 'container' ? ` (${t.count.toLocaleString()} item${t.count === 1 ? '' : 's'})` : ''}`), ' ',
      h('span', { class: 'muted' }, `deleted ${formatDate(new Date(t.deletedAt).toISOString())}, gone for good ${formatDate(new Date(t.purgeAt).toISOString())}`), ' ',
      h('button', { type: 'button', class: 'small secondary', 'aria-label': `Restore ${readablePath(t.path)}`, onclick: () => { void restore(t)() } }, 'Restore')))
    panel.replaceChildren(h('h2', { id: 'trash-h' }, 'Trash'),
      h('p', { class: 'muted' }, 'What you delete here is kept 30 days, then deleted for good.'),
      rows.length ? h('ul', { class: 'trash' }, rows) : h('p', { class: 'muted' }, 'The trash is empty'))
  }
  await fill()
  const onChange = () => {
    if (!panel.isConnected) { document.removeEventListener(TRASH_CHANGED, onChange); return }
    void fill().catch(sayError)
  }
  document.addEventListener(TRASH_CHANGED, onChange)
  return panel
}

const folderOf = (path: string) => path.slice(0, path.replace(/\/$/, '').lastIndexOf('/') + 1)
const tail = (it: Item) => (it.kind === 'container' ? '/' : '')

/** Rename: the new name as typed, in the same folder; the pod moves it, with its access, in one step. */
async function rename(it: Item, after: () => Promise<void>): Promise<void> {
  const name = nameOf(it.path)
  const typed = askText(`New name for "${name}"`, name)?.trim()
  if (!typed || typed === name) return
  if (typed.includes('/')) { sayError(new Error('A name must not contain "/"; use Move to… to put it in another folder')); return }
  await move(it, `${folderOf(it.path)}${encodeURIComponent(typed)}${tail(it)}`, `Renamed ${name} to ${typed}`, after)
}

/** Move to…: a folder of the pod as typed (`/notes/2024/`); the item keeps its name. */
async function moveTo(it: Item, after: () => Promise<void>): Promise<void> {
  const name = nameOf(it.path)
  const typed = askText(`Move "${name}" to which folder?`, readablePath(folderOf(it.path)))?.trim()
  if (!typed) return
  const folder = `${typed.startsWith('/') ? '' : '/'}${typed}${typed.endsWith('/') ? '' : '/'}`
  // The folder as typed: each of its names encoded, so "a b" and "#" stay part of a name.
  const encoded = folder.split('/').map((seg) => encodeURIComponent(seg)).join('/')
  const stored = it.path.replace(/\/$/, '').split('/').pop() ?? '' // its name as stored, already encoded
  await move(it, `${encoded}${stored}${tail(it)}`, `Moved ${name} to ${folder}`, after)
}

async function move(it: Item, to: string, done: string, after: () => Promise<void>): Promise<void> {
  try {
    await api<{ path: string }>('POST', '/move', { from: it.path, to }, `Moving ${nameOf(it.path)}`)
    await after()
    say(done)
  } catch (err) { sayError(err) }
}

function newFolderPanel(path: string): HTMLElement {
  const input = h('input', { type: 'text', id: 'folder-name', required: true, autocomplete: 'off' })
  const form = h('form', {}, h('label', { for: 'folder-name' }, 'Folder name'), input, h('button', { type: 'submit' }, 'Create folder'))
  form.addEventListener('submit', (e) => {
    e.preventDefault()
    const name = input.value.trim()
    if (!name || name.includes('/')) { sayError(new Error('A folder name must not be empty or contain "/"')); return }
    // If-None-Match: * — never replace something that already has this name (RFC 9110 §13.1.2)
    void ldp('PUT', `${BASE}${path}${encodeURIComponent(name)}/`, { headers: { 'content-type': 'text/turtle', 'if-none-match': '*' }, body: '' }, `Creating folder ${name}`)
      .then(() => { location.hash = `#/files${path}${encodeURIComponent(name)}/` }, (err: unknown) => {
        sayError(err instanceof ApiError && err.status === 412 ? new Error(`Creating folder ${name} failed: something named "${name}" already exists here; choose another name`) : err)
      })
  })
  return h('section', { class: 'panel', 'aria-labelledby': 'folder-h' }, h('h2', { id: 'folder-h' }, 'New folder'), form)
}

async function showDocument(view: HTMLElement, path: string): Promise<void> {
  const url = BASE + path
  const head = await ldp('GET', url, { headers: { accept: 'text/turtle;q=1, */*;q=0.5' } }, `Opening ${path}`)
  const type = head.headers.get('content-type') ?? ''
  const isRdf = type.startsWith('text/turtle')
  const etag = head.headers.get('etag')
  clear(view)
  view.append(breadcrumbs(path), h('h2', {}, nameOf(path)),
    h('p', { class: 'muted' }, `${type} · `, h('a', { href: `#/share${path}` }, 'Who can access this')))
  const actions = h('div', { class: 'actions' })
  view.append(actions)
  if (isRdf) {
    const text = await head.text()
    const pre = turtleView(text, BASE)
    view.append(pre)
    actions.append(h('button', { type: 'button', class: 'small', onclick: () => { editor(view, path, text, etag) } }, 'Edit'))
  } else {
    // A file may be a film: preview.ts reads the body only of short text, and the link saves it through the
    // owner's download route (the login cookie alone is anonymous at the resource server).
    await previewDocument(view, actions, path, head, () => showDocument(view, path))
    const size = Number(head.headers.get('content-length') ?? NaN)
    const link = h('a', { href: `${ADMIN_PATHS.download}?path=${encodeURIComponent(path)}`, download: nameOf(path), class: 'small' },
      Number.isFinite(size) ? `Download (${formatBytes(size)})` : 'Download')
    actions.append(link)
  }
  const parent = path.slice(0, path.lastIndexOf('/') + 1)
  actions.append(h('button', { type: 'button', class: 'small secondary', onclick: () => {
    void remove({ path, url, kind: isRdf ? 'rdf' : 'binary', contentType: type, size: 0, modified: '' }, async () => { location.hash = `#/files${parent}` })
  } }, 'Delete'))
}

/** The document as Turtle text; Check and Save both parse it first and show the error at its line. */
function editor(view: HTMLElement, path: string, text: string, etag: string | null): void {
  const url = BASE + path
  clear(view)
  const area = h('textarea', { id: 'rdf-text', spellcheck: 'false', 'aria-describedby': 'rdf-problem' })
  area.value = text
  area.addEventListener('input', () => { if (area.value !== text) markUnsaved(`Your changes to ${nameOf(path)}`, true); else markSaved() })
  const problem = h('div', { id: 'rdf-problem', role: 'alert' })
  const check = async (): Promise<boolean> => {
    const r = await api<{ ok: boolean; message?: string; line?: number; column?: number; triples?: number }>('POST', '/check-rdf', { text: area.value, contentType: 'text/turtle', base: url }, 'Checking the document')
    clear(problem)
    if (r.ok) { problem.className = 'muted'; problem.textContent = `Valid Turtle: ${r.triples} triples.`; return true }
    problem.className = 'error'
    const lineText = r.line ? area.value.split(/\r\n|\r|\n/)[r.line - 1] ?? '' : ''
    problem.append(h('p', {}, r.message ?? 'The document does not parse.'),
      r.line ? h('p', {}, `Line ${r.line}: `, h('code', { class: 'bad-line' }, lineText)) : '')
    if (r.line) selectLine(area, r.line)
    return false
  }
  const save = async () => {
    if (!await check()) return
    await ldp('PUT', url, { headers: { 'content-type': 'text/turtle', ...(etag ? { 'if-match': etag } : {}) }, body: area.value }, `Saving ${path}`)
    markSaved()
    location.hash = `#/files${path}`
    await showDocument(view, path)
    say(`Saved ${nameOf(path)}`)
  }
  view.append(breadcrumbs(path), h('h2', {}, `Edit ${nameOf(path)}`),
    h('label', { for: 'rdf-text' }, 'Turtle'), area, problem,
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => { void check().catch(sayError) } }, 'Check'),
      h('button', { type: 'button', onclick: () => { void save().catch(sayError) } }, 'Save'),
      h('button', { type: 'button', class: 'secondary', onclick: () => {
        // Cancel throws the typed text away: ask first, unless nothing was changed
        if (area.value !== text && !confirmAction(`Discard your changes to ${nameOf(path)}? They have not been saved.`)) return
        markSaved()
        void showDocument(view, path).catch(sayError)
      } }, 'Cancel')))
  area.focus()
}

function selectLine(area: HTMLTextAreaElement, line: number): void {
  const lines = area.value.split('\n')
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0)
  area.focus()
  area.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0))
}
