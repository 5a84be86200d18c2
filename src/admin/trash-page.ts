// The Trash page: what the dashboard's Delete put aside in the last 30 days, each with a Restore button
// (a plain POST form). Only the dashboard's deletes land here: an app's LDP DELETE deletes for good.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { parentPath } from '../store/paths.ts'
import { filesPage } from './files-page.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { listTrash, restoreTrashed } from './trash-files.ts'

const DAY_MS = 24 * 60 * 60_000
const nameOf = readableName

export async function showTrashPage(deps: Pick<Deps, 'cfg' | 'store' | 'now' | 'resources'>, cookieHeader: string | null, query: Record<string, unknown>): Promise<Response> {
  const items = (await listTrash(deps)).sort((a, b) => b.deletedAt - a.deletedAt)
  const now = deps.now()
  const rowsWith = (csrf: string) => items.map((it) => {
    const where = parentPath(it.path) ?? '/'
    const name = `${nameOf(it.path)}${it.kind === 'container' ? '/' : ''}`
    const days = Math.max(0, Math.ceil((it.purgeAt - now) / DAY_MS))
    return html`<tr><td data-label="Name">${name}</td>
<td data-label="Was in"><a href="${filesPage(where)}">${where === '/' ? 'Home' : readablePath(where)}</a></td>
<td data-label="Deleted">${localTime(it.deletedAt)}</td>
<td data-label="Items">${it.kind === 'container' ? (1 + it.count).toLocaleString('en') : '1'}</td>
<td data-label="Days left">${String(days)}</td>
<td class="row-actions"><form method="post" action="${ADMIN_PATHS.trashRestore}">${csrfField(csrf)}<input type="hidden" name="id" value="${it.id}"><button type="submit" class="small secondary" aria-label="Restore ${name}">Restore</button></form></td></tr>`
  })
  const done = query.done === 'restore' && typeof query.name === 'string' ? `Restored ${query.name}` : undefined
  return renderOwnerPage(deps, cookieHeader, {
    heading: 'Trash', section: ADMIN_PATHS.files, ...(done ? { notice: done } : {}),
    body: (csrf) => html`<p class="muted">What you deleted on the Files page stays here for 30 days, then it is gone for good. What apps delete (through the pod's API or WebDAV) does not come here: it is in <a href="${ADMIN_PATHS.activity}?what=deleted">Recently deleted</a>, where you can put it back.</p>
<p><a href="${filesPage('/')}">Back to your files</a></p>
<div class="table-wrap"><table class="stack"><caption class="visually-hidden">Deleted items</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Was in</th><th scope="col">Deleted</th><th scope="col">Items</th><th scope="col">Days left</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${items.length ? rowsWith(csrf) : html`<tr><td colspan="6" class="muted">The trash is empty</td></tr>`}</tbody></table></div>`,
  })
}

/** Puts the item back where it was (refused 409 when something else took its name meanwhile). */
export async function submitRestore(deps: Parameters<typeof restoreTrashed>[0], form: Record<string, unknown>): Promise<Response> {
  if (typeof form.id !== 'string' || form.id === '') throw new HttpError(400, 'invalid_request', 'which item to restore is missing')
  const { path } = await restoreTrashed(deps, form.id)
  return seeOther(filesPage(parentPath(path) ?? '/', { what: 'restore', name: nameOf(path) }))
}
