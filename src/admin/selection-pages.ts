// The Files page's selected rows: "Delete selected" asks once, naming how many items go (a folder's
// contents counted), then moves each into the trash; "Move selected to…" asks for the folder, then moves
// each item there (moveFiles, one atomic move per item). Without JavaScript the selection arrives as
// repeated `item` fields (the GET of the page's form, then the POST of the confirmation).

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { podPath } from './browse.ts'
import { countFolder } from './delete-folder.ts'
import { confirmedCount, filesPage } from './files-page.ts'
import { moveFiles } from './move-files.ts'
import { folderPickerHtml, pickFolders, typedFolder } from './folder-picker.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { metaAsOwner } from './owner-read.ts'
import { TRASH_MAX_ITEMS } from '../resources/trash-listing.ts'
import { moveToTrash } from './trash-files.ts'
import { countOf } from '../lib/count-words.ts'

type PageDeps = Pick<Deps, 'cfg' | 'store' | 'resources'>
type ActDeps = PageDeps & Parameters<typeof moveToTrash>[0] & Parameters<typeof moveFiles>[0]

/** At most one page of rows is selected at once. */
const MAX_SELECTED = 100

const lastName = (path: string) => path.replace(/\/$/, '').split('/').pop() ?? ''

/** The selected paths, distinct and canonical; none → 400 nothing_selected. */
export function selectedItems(raw: unknown): string[] {
  const list = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(x => x !== '')
  if (list.length === 0) throw new HttpError(400, 'nothing_selected', 'tick at least one item in the list first')
  if (list.length > MAX_SELECTED) throw new HttpError(400, 'invalid_request', `at most ${MAX_SELECTED} items at once`)
  const paths = [...new Set(list.map(p => podPath(p)))]
  if (paths.includes('/')) throw new HttpError(405, 'root_protected', 'the root of the pod cannot be deleted or moved')
  return paths
}

/** The folder the selection was made in (where the answer leads back to). */
const folderOf = (paths: readonly string[]) => parentPath(paths[0]!) ?? '/'

/** Every item and what it holds: 1 for a document, 1 + its contents for a folder; a missing item → 404. */
async function countAll(deps: PageDeps, paths: readonly string[]): Promise<{ path: string; inside: number }[]> {
  return Promise.all(
    paths.map(async path => {
      if (!(await metaAsOwner(deps, path))) throw new HttpError(404, 'not_found', `there is nothing at ${path}`)
      return { path, inside: isContainerPath(path) ? (await countFolder(deps, path)).count : 0 }
    }),
  )
}

/**
 * A folder the trash cannot keep would stop the selection half done: refused before anything goes, and
 * already on the confirmation page, so the owner is not asked a question whose answer cannot be carried out.
 */
function refuseTooLargeForTrash(counted: readonly { path: string; inside: number }[]): void {
  const tooLarge = counted.find(c => isContainerPath(c.path) && c.inside > TRASH_MAX_ITEMS)
  if (tooLarge)
    throw new HttpError(
      413,
      'too_large_for_trash',
      `${readablePath(tooLarge.path)} holds ${tooLarge.inside} items, more than the trash keeps (${TRASH_MAX_ITEMS}); nothing was deleted: delete it on its own (Delete on its row) to delete it for good`,
    )
}

const hiddenItems = (paths: readonly string[]) => paths.map(p => html`<input type="hidden" name="item" value="${p}">`)
const nameList = (paths: readonly string[]) => html`<ul>${paths.map(p => html`<li>${readableName(p)}${isContainerPath(p) ? '/' : ''}</li>`)}</ul>`

export async function showDeleteSelected(deps: PageDeps, cookieHeader: string | null, raw: unknown): Promise<Response> {
  const paths = selectedItems(raw)
  const counted = await countAll(deps, paths)
  refuseTooLargeForTrash(counted)
  const total = counted.reduce((n, c) => n + 1 + c.inside, 0)
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Delete ${countOf(paths.length, 'selected item')}?`,
    section: ADMIN_PATHS.files,
    body: csrf => html`<p>Delete ${countOf(total, 'item')}${total > paths.length ? ' (with what the folders hold)' : ''}? They stay in the <a href="${ADMIN_PATHS.trashPage}">trash</a> for 30 days, where you can restore them.</p>
${nameList(paths)}
<form method="post" action="${ADMIN_PATHS.deleteSelected}">${csrfField(csrf)}${hiddenItems(paths)}<input type="hidden" name="count" value="${String(total)}">
<p><button type="submit">Delete ${countOf(total, 'item')}</button> <a class="button secondary" href="${filesPage(folderOf(paths))}">Cancel</a></p></form>`,
  })
}

/** Nothing goes unless the selection still holds exactly the count the page named (409 confirmation_required). */
export async function submitDeleteSelected(deps: ActDeps, form: Record<string, unknown>): Promise<Response> {
  const paths = selectedItems(form.item)
  const confirmed = confirmedCount(form.count)
  const counted = await countAll(deps, paths)
  const total = counted.reduce((n, c) => n + 1 + c.inside, 0)
  if (total !== confirmed) throw new HttpError(409, 'confirmation_required', `the selection holds ${total} items now, not ${confirmed}: confirm again`)
  refuseTooLargeForTrash(counted)
  for (const c of counted) await moveToTrash(deps, isContainerPath(c.path) ? { path: c.path, count: c.inside } : { path: c.path })
  return seeOther(filesPage(folderOf(paths), { what: 'delete', name: countOf(paths.length, 'item') }))
}

/** The Move selected page browsing `folder` in its picker. */
const moveSelectedPage = (paths: readonly string[], folder: string) =>
  `${ADMIN_PATHS.moveSelected}?${paths.map(p => `item=${encodeURIComponent(p)}&`).join('')}in=${encodeURIComponent(folder)}`

/** `browsing`: the folder the picker shows (a picker link's `in`), else the one the selection was made in. */
export async function showMoveSelected(deps: PageDeps, cookieHeader: string | null, raw: unknown, browsing?: string | null): Promise<Response> {
  const paths = selectedItems(raw)
  await countAll(deps, paths)
  const from = folderOf(paths)
  const picked = await pickFolders(deps, browsing ? podPath(browsing) : from)
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Move ${countOf(paths.length, 'item')}`,
    section: ADMIN_PATHS.files,
    body: csrf => html`<p>Move these to another folder. Who may access them moves with them.</p>
${nameList(paths)}
<form method="post" action="${ADMIN_PATHS.moveSelected}">${csrfField(csrf)}${hiddenItems(paths)}
<label for="move-folder">To the folder</label><input type="text" id="move-folder" name="folder" value="${readablePath(picked.folder)}" required autocomplete="off">
<p><button type="submit">Move</button> <a class="button secondary" href="${filesPage(from)}">Cancel</a></p></form>
${folderPickerHtml(picked, f => moveSelectedPage(paths, f), paths)}`,
  })
}

/** One atomic move per item; a refusal stops there (what moved before it stays moved, and the error page says why). */
export async function submitMoveSelected(deps: ActDeps, form: Record<string, unknown>): Promise<Response> {
  const paths = selectedItems(form.item)
  if (typeof form.folder !== 'string' || form.folder.trim() === '') throw new HttpError(400, 'invalid_path', 'name the folder to move them to')
  const to = await typedFolder(deps, form.folder)
  const meta = await metaAsOwner(deps, to)
  if (meta?.kind !== 'container') throw new HttpError(404, 'not_found', `there is no folder ${to}`)
  for (const path of paths) await moveFiles(deps, path, `${to}${lastName(path)}${isContainerPath(path) ? '/' : ''}`)
  return seeOther(filesPage(to, { what: 'move', name: countOf(paths.length, 'item') }))
}
