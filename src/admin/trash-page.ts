// The Trash page: what the dashboard's Delete put aside in the last 30 days, each with a Restore button
// (a plain POST form), a Delete for good and an Empty trash, each asked on a page of its own that says the space it
// frees. Only the dashboard's deletes land here: an app's LDP DELETE deletes for good.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { parentPath } from '../store/paths.ts'
import { filesPage } from './files-page.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { deleteTrashedForGood, emptyTrash, listTrash, restoreTrashed, type TrashView } from './trash-files.ts'
import { formatBytes } from '../lib/format-bytes.ts'
import { countOf } from '../lib/count-words.ts'
import { SEPARATOR } from '../lib/separator.ts'

const DAY_MS = 24 * 60 * 60_000
const nameOf = readableName

export async function showTrashPage(
  deps: Pick<Deps, 'cfg' | 'store' | 'now' | 'resources'>,
  cookieHeader: string | null,
  query: Record<string, unknown>,
): Promise<Response> {
  const items = (await listTrash(deps)).sort((a, b) => b.deletedAt - a.deletedAt)
  const now = deps.now()
  const rowsWith = (csrf: string) =>
    items.map(it => {
      const where = parentPath(it.path) ?? '/'
      const name = `${nameOf(it.path)}${it.kind === 'container' ? '/' : ''}`
      const days = Math.max(0, Math.ceil((it.purgeAt - now) / DAY_MS))
      return html`<tr><td data-label="Name">${name}</td>
<td data-label="Was in"><a href="${filesPage(where)}">${where === '/' ? 'Home' : readablePath(where)}</a></td>
<td data-label="Deleted">${localTime(it.deletedAt)}</td>
<td data-label="Items">${it.kind === 'container' ? (1 + it.count).toLocaleString('en') : '1'}</td>
<td data-label="Size">${formatBytes(it.bytes ?? 0)}</td>
<td data-label="Days left">${String(days)}</td>
<td class="row-actions"><form method="post" action="${ADMIN_PATHS.trashRestore}">${csrfField(csrf)}<input type="hidden" name="id" value="${it.id}"><button type="submit" class="small secondary" aria-label="Restore ${name}">Restore</button></form>
<a class="small" href="${ADMIN_PATHS.trashDelete}?id=${encodeURIComponent(it.id)}" aria-label="Delete ${name} for good">Delete for good</a></td></tr>`
    })
  const done = typeof query.done === 'string' ? doneNotice(query) : undefined
  const total = items.reduce((n, it) => n + (it.bytes ?? 0), 0)
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Trash',
    section: ADMIN_PATHS.files,
    ...(done ? { notice: done } : {}),
    body: csrf => html`<p class="muted">What you deleted on the Files page stays here for 30 days, then it is gone for good. What apps delete (through the pod's API or WebDAV) does not come here: it is in <a href="${ADMIN_PATHS.activity}?what=deleted">Recently deleted</a>, where you can put it back.</p>
<p class="actions"><a href="${filesPage('/')}">Back to your files</a>${items.length ? html` <a class="button secondary" href="${ADMIN_PATHS.trashEmpty}">Empty trash (${formatBytes(total)})</a>` : ''}</p>
<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Deleted items</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Was in</th><th scope="col">Deleted</th><th scope="col">Items</th><th scope="col">Size</th><th scope="col">Days left</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${items.length ? rowsWith(csrf) : html`<tr><td colspan="7" class="muted">The trash is empty</td></tr>`}</tbody></table></div>`,
  })
}

/** Puts the item back where it was (refused 409 when something else took its name meanwhile). */
export async function submitRestore(deps: Parameters<typeof restoreTrashed>[0], form: Record<string, unknown>): Promise<Response> {
  if (typeof form.id !== 'string' || form.id === '') throw new HttpError(400, 'invalid_request', 'which item to restore is missing')
  const { path } = await restoreTrashed(deps, form.id)
  return seeOther(filesPage(parentPath(path) ?? '/', { what: 'restore', name: nameOf(path) }))
}

const count = (n: number) => countOf(n, 'item')
const whole = (raw: unknown) => (typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : 0)

/** The trash page's notice after a restore, a delete for good or an empty (`done`, with `name`, `items`, `bytes`). */
function doneNotice(query: Record<string, unknown>): string | undefined {
  const name = typeof query.name === 'string' ? query.name : ''
  if (query.done === 'restore') return `Restored ${name}`
  if (query.done === 'deleteForGood') return `Deleted ${name} for good${SEPARATOR}${formatBytes(whole(query.bytes))} freed`
  if (query.done === 'empty') return `Emptied the trash: ${count(whole(query.items))} deleted for good${SEPARATOR}${formatBytes(whole(query.bytes))} freed`
  return undefined
}

const itemOf = async (deps: Parameters<typeof listTrash>[0], raw: unknown): Promise<TrashView> => {
  if (typeof raw !== 'string' || raw === '') throw new HttpError(400, 'invalid_request', 'which item of the trash is missing')
  const item = (await listTrash(deps)).find(it => it.id === raw)
  if (!item) throw new HttpError(404, 'not_found', 'there is no item of this id in the trash')
  return item
}

/** "Delete X for good?": the page the row's link leads to, with the space it frees. Nothing is deleted before its button is pressed. */
export async function showDeleteTrashed(deps: Parameters<typeof showTrashPage>[0], cookieHeader: string | null, raw: unknown): Promise<Response> {
  const item = await itemOf(deps, raw)
  const name = `${nameOf(item.path)}${item.kind === 'container' ? '/' : ''}`
  const what =
    item.kind === 'container'
      ? html`<strong>${readablePath(item.path)}</strong> and the ${count(item.count)} in it`
      : html`<strong>${readablePath(item.path)}</strong>`
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Delete ${name} for good?`,
    section: ADMIN_PATHS.files,
    body: csrf => html`<p>Delete ${what} for good? This frees ${formatBytes(item.bytes ?? 0)}. It cannot be restored afterwards.</p>
<form method="post" action="${ADMIN_PATHS.trashDelete}">${csrfField(csrf)}<input type="hidden" name="id" value="${item.id}">
<p><button type="submit">Delete for good</button> <a class="button secondary" href="${ADMIN_PATHS.trashPage}">Cancel</a></p></form>`,
  })
}

export async function submitDeleteTrashed(deps: Parameters<typeof deleteTrashedForGood>[0], form: Record<string, unknown>): Promise<Response> {
  if (typeof form.id !== 'string' || form.id === '') throw new HttpError(400, 'invalid_request', 'which item to delete for good is missing')
  const { path, bytes } = await deleteTrashedForGood(deps, form.id)
  return seeOther(`${ADMIN_PATHS.trashPage}?${new URLSearchParams({ done: 'deleteForGood', name: nameOf(path), bytes: String(bytes) })}`)
}

/** "Empty the trash?": how many items and the space it frees; the form names the newest item shown, so what is deleted meanwhile stays. */
export async function showEmptyTrash(deps: Parameters<typeof showTrashPage>[0], cookieHeader: string | null): Promise<Response> {
  const items = await listTrash(deps)
  if (items.length === 0) throw new HttpError(404, 'not_found', 'the trash is empty already')
  const bytes = items.reduce((n, it) => n + (it.bytes ?? 0), 0)
  const upTo = Math.max(...items.map(it => it.deletedAt))
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Empty the trash?',
    section: ADMIN_PATHS.files,
    body: csrf => html`<p>Delete the ${count(items.length)} in the trash for good? This frees ${formatBytes(bytes)}. None of it can be restored afterwards.</p>
<form method="post" action="${ADMIN_PATHS.trashEmpty}">${csrfField(csrf)}<input type="hidden" name="upTo" value="${String(upTo)}">
<p><button type="submit">Empty trash</button> <a class="button secondary" href="${ADMIN_PATHS.trashPage}">Cancel</a></p></form>`,
  })
}

export async function submitEmptyTrash(deps: Parameters<typeof emptyTrash>[0], form: Record<string, unknown>): Promise<Response> {
  if (typeof form.upTo !== 'string' || !/^\d{1,15}$/.test(form.upTo))
    throw new HttpError(400, 'invalid_request', 'upTo must be the time of the newest item the page showed')
  const { items, bytes } = await emptyTrash(deps, Number(form.upTo))
  return seeOther(`${ADMIN_PATHS.trashPage}?${new URLSearchParams({ done: 'empty', items: String(items), bytes: String(bytes) })}`)
}
