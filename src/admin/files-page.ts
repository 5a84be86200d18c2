// Files: a container page by page with plain forms for a new folder, an upload (multipart/form-data), a
// selection of rows to delete or move, a delete into the trash behind a confirmation page, and links to
// edit, share, rename and copy each item. It all works without JavaScript; the script (static/admin/files-upload.ts,
// files-select.ts) adds upload progress, drag and drop, resumable uploads and "select all". New folders, uploads,
// downloads and deletes go through the operations layer (deps.resources) as the owner, decided as an app's PUT, GET
// or DELETE would be.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { asSentence, html, problemBox } from '../http/html-page.ts'
import { formatBytes } from '../lib/format-bytes.ts'
import { localTime } from '../http/local-time.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { browseContainer, podPath } from './browse.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { NO_PRECONDITIONS, type Preconditions } from '../resources/preconditions.ts'
import type { FormPart } from '../http/upload-form.ts'
import { readableName, readablePath, readablePathsIn } from '../lib/readable-path.ts'
import { undeletableWithin } from '../policy/pod-essentials.ts'
import { previewKind } from '../lib/preview-kind.ts'
import { NUMBERED_NAMES_TRIED, numberedName } from '../lib/numbered-name.ts'
import { uploadedQuery, uploadNotice } from '../lib/upload-notice.ts'
import { countFolder, deleteFolder } from './delete-folder.ts'
import { moveToTrash } from './trash-files.ts'
import { makeRowMarkers, type RowMarkers } from './row-markers.ts'
import { ownerActing } from './owner-acting.ts'
import { metaAsOwner, readAsOwner } from './owner-read.ts'
import { searchForm } from './search-form.ts'
import { rememberSort, rememberedSort, SORT_KEYS, SORT_UP_TO, sortOfQuery, sortQuery, type FilesSort, type SortKey } from './files-sort.ts'
import { countOf } from '../lib/count-words.ts'
import { SEPARATOR } from '../lib/separator.ts'

type AdminDeps = Pick<Deps, 'cfg' | 'store'>
type LayerDeps = Pick<Deps, 'cfg' | 'resources'>
type ListingDeps = Parameters<typeof makeRowMarkers>[0] & LayerDeps

export type Done = 'folder' | 'delete' | 'deleteForGood' | 'move' | 'copy' | 'restore'
export const filesPage = (path: string, done?: { what: Done; name: string }) =>
  `${ADMIN_PATHS.files}?path=${encodeURIComponent(path)}${done ? `&done=${done.what}&name=${encodeURIComponent(done.name)}` : ''}`

const nameOf = (path: string) => readableName(path) || 'Home'
const DONE: Record<Done, (name: string) => string> = {
  folder: n => `Created the folder ${n}`,
  delete: n => `Moved ${n} to the trash`,
  deleteForGood: n => `Deleted ${n} for good`,
  move: n => `Moved ${n} here`,
  copy: n => `Copied ${n} here`,
  restore: n => `Restored ${n}`,
}
const KIND = { container: 'Folder', rdf: 'RDF document', binary: 'File' } as const

function crumbs(path: string) {
  const parts = path.split('/').filter(p => p !== '')
  let at = '/'
  const items = parts.map((p, i) => {
    at += `${p}/`
    return i === parts.length - 1
      ? html`<li><span aria-current="page">${readablePath(p)}</span></li>`
      : html`<li><a href="${filesPage(at)}">${readablePath(p)}</a></li>`
  })
  return html`<nav aria-label="Breadcrumbs"><ol class="crumbs"><li><a href="${filesPage('/')}">Home</a></li>${items}</ol></nav>`
}

const sharing = (path: string) => `${ADMIN_PATHS.share}?path=${encodeURIComponent(path)}`

/** The row's markers: text (a badge) linking to the item's sharing page; none for what only the owner reaches. */
const markers = (path: string, m: RowMarkers) =>
  html`${m.public ? html` <a class="badge public" href="${sharing(path)}" title="Anyone may read it">Public</a>` : ''}${m.shared ? html` <a class="badge shared" href="${sharing(path)}" title="Someone other than you has access">Shared</a>` : ''}`

export async function showFilesPage(deps: ListingDeps, cookieHeader: string | null, query: Record<string, unknown>): Promise<Response> {
  const chosen = sortOfQuery(query)
  const list = await browseContainer(
    deps,
    { path: query.path ?? '/', after: query.after, before: query.before, sort: query.sort, order: query.order },
    rememberedSort(deps.cfg.baseUrl, cookieHeader),
  )
  const sort: FilesSort = { key: list.sort.key, desc: list.sort.order === 'desc' }
  // The pager keeps the order even where the cookie is not sent back
  const here = `${filesPage(list.path)}${sort.key === 'name' && !sort.desc ? '' : `&${sortQuery(sort)}`}`
  const markersOf = makeRowMarkers(deps)
  const marks = await Promise.all(list.items.map(it => markersOf(it.path)))
  const { path } = list
  const count = `${list.countIsExact ? '' : 'more than '}${list.count.toLocaleString('en')} item${list.count === 1 && list.countIsExact ? '' : 's'}`
  // Cursors, not offsets: a page stays put while files are added or deleted elsewhere in the folder.
  const pager =
    list.next === null && list.prev === null
      ? ''
      : html`<p class="actions">${list.prev !== null ? html`<a href="${here}&before=${encodeURIComponent(list.prev)}">Previous page</a>` : ''}
${list.next !== null ? html`<a href="${here}&after=${encodeURIComponent(list.next)}">Next page</a>` : ''}</p>`
  const rows = list.items.map(
    (it, i) => html`<tr>
<td class="pick"><input type="checkbox" name="item" value="${it.path}" aria-label="Select ${nameOf(it.path)}"></td>
<td data-label="Name" class="name">${it.kind === 'container' ? html`<a href="${filesPage(it.path)}">${nameOf(it.path)}/</a>` : html`${previewKind(it.contentType) === 'image' ? html`<img class="thumb" src="${ADMIN_PATHS.preview}?path=${encodeURIComponent(it.path)}" alt="" loading="lazy">` : ''}<a href="${ADMIN_PATHS.view}?path=${encodeURIComponent(it.path)}">${nameOf(it.path)}</a>`}${markers(it.path, marks[i]!)}</td>
<td data-label="Type" class="meta">${it.kind === 'binary' ? it.contentType : KIND[it.kind]}</td>
${it.kind === 'container' ? html`<td data-label="Size" class="meta none">—</td>` : html`<td data-label="Size" class="meta">${formatBytes(it.size)}</td>`}
<td data-label="Modified" class="meta">${localTime(Date.parse(it.modified))}</td>
<td class="row-actions">${it.kind === 'rdf' ? html`<a class="small" href="${ADMIN_PATHS.edit}?path=${encodeURIComponent(it.path)}" aria-label="Edit ${nameOf(it.path)}">Edit</a> ` : ''}<a class="small" href="${sharing(it.path)}" aria-label="Share ${nameOf(it.path)}">Share</a>
<a class="small" href="${ADMIN_PATHS.move}?path=${encodeURIComponent(it.path)}" aria-label="Rename or move ${nameOf(it.path)}">Rename</a>
<a class="small" href="${ADMIN_PATHS.copy}?path=${encodeURIComponent(it.path)}" aria-label="Copy ${nameOf(it.path)} to another folder">Copy</a>
<a class="small" href="${ADMIN_PATHS.delete}?path=${encodeURIComponent(it.path)}" aria-label="Delete ${nameOf(it.path)}">Delete</a></td></tr>`,
  )
  const done =
    uploadNotice(nameOf(path), query) ??
    (typeof query.done === 'string' && typeof query.name === 'string'
      ? (DONE as Record<string, ((name: string) => string) | undefined>)[query.done]?.(query.name)
      : undefined)
  const page = await renderOwnerPage(deps, cookieHeader, {
    heading: path === '/' ? 'Your files' : nameOf(path),
    section: ADMIN_PATHS.files,
    ...(done ? { notice: done } : {}),
    body: csrf => html`${searchForm()}${crumbs(path)}${sortForm(path, sort)}
${list.sortRefused ? html`<p class="notice">Sorted by name: sorting by date, size or type is offered for folders of up to ${SORT_UP_TO.toLocaleString('en')} items.</p>` : ''}
<p class="muted">${count}${SEPARATOR}<a href="${sharing(path)}">Who can access ${path === '/' ? 'your pod' : 'this folder'}</a>${SEPARATOR}<a href="${ADMIN_PATHS.history}?path=${encodeURIComponent(path)}">History of ${path === '/' ? 'your pod' : 'this folder'}</a>${SEPARATOR}<a href="${ADMIN_PATHS.trashPage}">Trash</a>${SEPARATOR}<a href="${ADMIN_PATHS.sharedByMe}">Shared by me</a>${list.count > 0 ? html`${SEPARATOR}<a href="${ADMIN_PATHS.gallery}?path=${encodeURIComponent(path)}">Photos and films</a>` : ''}${list.count > 0 ? html`${SEPARATOR}<a href="${ADMIN_PATHS.downloadZip}?path=${encodeURIComponent(path)}" download>Download ${path === '/' ? 'your pod' : 'this folder'} as zip</a>` : ''}</p>${pager}
<form id="selection" method="get" action="${ADMIN_PATHS.deleteSelected}" data-enhance="select"><input type="hidden" name="path" value="${path}">
<div class="table-wrap"><table class="stack files"><caption class="visually-hidden">Contents of ${readablePath(path)}</caption>
<thead><tr><th scope="col" class="pick"><span class="visually-hidden">Selected</span></th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Size</th><th scope="col">Modified</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="6" class="muted">This folder is empty</td></tr>`}</tbody></table></div>
${rows.length ? html`<p class="actions selection-actions"><button type="submit" class="secondary">Delete selected</button> <button type="submit" class="secondary" formaction="${ADMIN_PATHS.moveSelected}">Move selected to…</button> <button type="submit" class="secondary" formaction="${ADMIN_PATHS.downloadZip}" name="selected" value="yes">Download selected as zip</button></p>` : ''}</form>${pager}
<section class="panel" aria-labelledby="upload-h"><h2 id="upload-h">Upload files</h2>
<form method="post" action="${ADMIN_PATHS.upload}" enctype="multipart/form-data" data-enhance="upload">${csrfField(csrf)}<input type="hidden" name="path" value="${path}">
<label class="check"><input type="checkbox" name="replace" value="yes"> Replace files of the same name</label>
<label for="upload-file">Files to upload</label><input type="file" id="upload-file" name="file" multiple>
<button type="submit">Upload</button></form></section>
<section class="panel" aria-labelledby="folder-h"><h2 id="folder-h">New folder</h2>
<form method="post" action="${ADMIN_PATHS.newFolder}">${csrfField(csrf)}<input type="hidden" name="path" value="${path}">
<label for="folder-name">Folder name</label><input type="text" id="folder-name" name="name" required autocomplete="off">
<button type="submit">Create folder</button></form></section>`,
  })
  // The order chosen here is remembered for every folder (a refused one too: a smaller folder will take it)
  if (chosen) page.headers.append('set-cookie', rememberSort(deps.cfg.baseUrl, chosen))
  return page
}

const SORT_LABELS: Record<SortKey, [string, string, string]> = {
  name: ['Name', 'A to Z', 'Z to A'],
  modified: ['Date modified', 'Oldest first', 'Newest first'],
  size: ['Size', 'Smallest first', 'Largest first'],
  type: ['Type', 'A to Z', 'Z to A'],
}

/** The order as a plain GET form (a phone hides the table's head, so the choice is not in the column titles); the script sends it on change. */
const sortForm = (path: string, sort: FilesSort) =>
  html`<form class="sort" method="get" action="${ADMIN_PATHS.files}" data-enhance="sort"><input type="hidden" name="path" value="${path}">
<label for="sort-key">Sort by</label> <select id="sort-key" name="sort">${SORT_KEYS.map(k => html`<option value="${k}"${k === sort.key ? ' selected' : ''}>${SORT_LABELS[k][0]}</option>`)}</select>
<label for="sort-order" class="visually-hidden">Order</label> <select id="sort-order" name="order"><option value="asc"${sort.desc ? '' : ' selected'}>${SORT_LABELS[sort.key][1]}</option><option value="desc"${sort.desc ? ' selected' : ''}>${SORT_LABELS[sort.key][2]}</option></select>
<button type="submit" class="secondary small">Sort</button></form>`

const containerOf = (raw: unknown) => {
  const path = podPath(raw)
  if (!isContainerPath(path)) throw new HttpError(400, 'not_a_container', `${path} is not a folder: folder paths end with "/"`)
  return path
}

/** RFC 9110 §13.1.2 If-None-Match: * — never replaces what already has this name. */
const CREATE_ONLY: Preconditions = { ifMatch: null, ifNoneMatch: '*' }

export async function createFolder(deps: LayerDeps, form: Record<string, unknown>): Promise<Response> {
  const path = containerOf(form.path)
  const name = typeof form.name === 'string' ? form.name.trim() : ''
  if (name === '' || name.includes('/')) throw new HttpError(400, 'invalid_name', 'a folder name must not be empty or contain "/"')
  await deps.resources
    .put(ownerActing(deps.cfg.baseUrl), podPath(`${path}${encodeURIComponent(name)}/`), 'text/turtle', '', CREATE_ONLY)
    .catch(exists(name, path))
  return seeOther(filesPage(`${path}${encodeURIComponent(name)}/`, { what: 'folder', name }))
}

const exists =
  (name: string, path: string, hint = '') =>
  (err: unknown) => {
    if (err instanceof HttpError && err.status === 412) throw new HttpError(412, 'already_exists', `"${name}" already exists in ${path}${hint}`)
    throw err
  }

/**
 * multipart/form-data, read as it arrives: csrf, path and replace first (the page puts them before the file
 * input, and browsers send fields in document order), then the files, each streamed through the operations layer
 * to the blob store. The owner is checked before the first byte of a file is read. Without "Replace", a name
 * already taken is kept and the new file gets the next numbered name (`photo (2).jpg`), as POST mints names.
 */
export async function uploadFiles(deps: LayerDeps, parts: AsyncIterable<FormPart>, checkOwner: (csrf: string | undefined) => Promise<void>): Promise<Response> {
  const fields = new Map<string, string>()
  const landed: { name: string; renamed: boolean; bytes: number }[] = []
  let path: string | undefined
  for await (const part of parts) {
    if (part.kind === 'field') {
      fields.set(part.name, part.value)
      continue
    }
    if (path === undefined) {
      await checkOwner(fields.get('csrf'))
      path = containerOf(fields.get('path'))
    }
    if (part.name !== 'file' || part.filename === '') {
      await part.body.cancel()
      continue
    }
    const replace = fields.get('replace') === 'yes'
    // The body is a stream read once: the free name is found before it is sent (a race with another write is the 412 below)
    const name = replace ? part.filename : await freeName(deps, path, part.filename)
    const written = await deps.resources
      .put(
        ownerActing(deps.cfg.baseUrl),
        podPath(path + encodeURIComponent(name)),
        part.mimeType || 'application/octet-stream',
        part.body,
        replace ? NO_PRECONDITIONS : CREATE_ONLY,
      )
      .catch(exists(name, path, '; it was taken while this upload ran: upload it again'))
    landed.push({ name, renamed: name !== part.filename, bytes: written.meta.size ?? 0 })
  }
  if (path === undefined) await checkOwner(fields.get('csrf'))
  if (landed.length === 0) throw new HttpError(400, 'no_file', 'choose at least one file to upload')
  const folder = path ?? containerOf(fields.get('path'))
  return seeOther(
    `${filesPage(folder)}&${uploadedQuery({ names: landed.map(f => f.name), bytes: landed.reduce((sum, f) => sum + f.bytes, 0), renamed: landed.filter(f => f.renamed).length })}`,
  )
}

/** The first of `name`, `name (2)`, `name (3)`… free in `folder` (neither a file nor a folder of that name), as people read it. */
export async function freeName(deps: LayerDeps, folder: string, name: string): Promise<string> {
  const taken = async (n: string) =>
    (await metaAsOwner(deps, podPath(folder + encodeURIComponent(n)))) !== undefined ||
    (await metaAsOwner(deps, podPath(`${folder}${encodeURIComponent(n)}/`))) !== undefined
  for (let n = 1; n <= NUMBERED_NAMES_TRIED; n++) {
    const candidate = numberedName(name, n)
    if (!(await taken(candidate))) return candidate
  }
  throw new HttpError(
    412,
    'already_exists',
    `"${name}" and ${NUMBERED_NAMES_TRIED.toLocaleString('en')} numbered names after it already exist in ${readablePath(folder)}`,
  )
}

/**
 * A document or file as a download (its page, view-page.ts, shows what may be shown; here the browser saves it).
 * Always an attachment: the pod's own origin never renders stored content as a page.
 */
export async function downloadResource(deps: LayerDeps, raw: unknown): Promise<Response> {
  const path = podPath(raw)
  if (isContainerPath(path)) throw new HttpError(400, 'not_a_document', `${path} is a folder: open it in Files`)
  const res = await readAsOwner(deps, path, 'text/turtle;q=1, */*;q=0.5')
  return asDownload(res, path)
}

/** A representation as a download named after `path`: never shown in a page of the pod's origin. */
export function asDownload(res: Response, path: string): Response {
  const name = nameOf(path).replace(/[^\w.-]+/g, '_')
  return new Response(res.body, {
    headers: {
      'content-type': res.headers.get('content-type') ?? 'application/octet-stream',
      'content-disposition': `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(nameOf(path))}`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  })
}

/** "Delete X?": the page the Delete link leads to; for a folder it says how many items go with it. Nothing is deleted before its button is pressed. */
export async function showDeletePage(deps: AdminDeps & LayerDeps, cookieHeader: string | null, raw: unknown): Promise<Response> {
  const path = podPath(raw)
  const meta = await metaAsOwner(deps, path)
  if (!meta || path === '/') throw new HttpError(404, 'not_found', path === '/' ? 'the root of the pod cannot be deleted' : `there is nothing at ${path}`)
  const back = filesPage(parentPath(path) ?? '/')
  // What the pod would refuse is said before, not after a question whose Delete cannot work
  const refused = undeletableWithin(path)
  if (refused !== undefined)
    return renderOwnerPage(deps, cookieHeader, {
      heading: `${nameOf(path)} cannot be deleted`,
      section: ADMIN_PATHS.files,
      body: () => html`<div class="error" id="undeletable"><p>${asSentence(readablePathsIn(refused))}</p></div>
<p class="actions"><a class="button secondary" href="${back}">Back to the folder</a></p>`,
    })
  const count = meta.kind === 'container' ? (await countFolder(deps, path)).count : undefined
  const question =
    count === undefined
      ? html`Delete <strong>${readablePath(path)}</strong>?`
      : count === 0
        ? html`Delete the folder <strong>${readablePath(path)}</strong>?`
        : html`Delete <strong>${readablePath(path)}</strong> and the ${countOf(count, 'item')} in it?`
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Delete ${nameOf(path)}?`,
    section: ADMIN_PATHS.files,
    body: csrf => html`<p>${question} It stays in the <a href="${ADMIN_PATHS.trashPage}">trash</a> for 30 days, where you can restore it.</p>
<form method="post" action="${ADMIN_PATHS.delete}">${csrfField(csrf)}<input type="hidden" name="path" value="${path}">${count === undefined ? '' : html`<input type="hidden" name="count" value="${String(count)}">`}
<p><button type="submit">Delete</button> <a class="button secondary" href="${back}">Cancel</a></p></form>`,
  })
}

/** The form's count (a folder's, as the page named it) as the trash wants it: a number, or a 400. */
export function confirmedCount(raw: unknown): number {
  const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  if (!Number.isInteger(n)) throw new HttpError(400, 'invalid_query', 'count must be the number of items the page named')
  return n
}

/**
 * Into the trash (the dashboard's one Delete): a folder with everything in it, exactly the count the page named.
 * What the trash cannot keep (a folder of more than 2,000 items, or more RDF than it holds) is not deleted:
 * the owner is asked on a page of its own whether to delete it for good (`forever`), as the count named.
 */
export async function deleteResource(
  deps: AdminDeps & LayerDeps & Parameters<typeof moveToTrash>[0] & Parameters<typeof deleteFolder>[0],
  request: Request,
  form: Record<string, unknown>,
): Promise<Response> {
  const path = podPath(form.path)
  const back = parentPath(path) ?? '/'
  if (form.forever === 'yes') {
    if (isContainerPath(path)) await deleteFolder(deps, path, form.count)
    else await deps.resources.delete(ownerActing(deps.cfg.baseUrl), path, NO_PRECONDITIONS)
    return seeOther(filesPage(back, { what: 'deleteForGood', name: nameOf(path) }))
  }
  try {
    await moveToTrash(deps, isContainerPath(path) ? { path, count: confirmedCount(form.count) } : { path })
  } catch (err) {
    if (!(err instanceof HttpError) || err.code !== 'too_large_for_trash') throw err
    return renderOwnerPage(deps, request.headers.get('cookie'), {
      heading: `Delete ${nameOf(path)} for good?`,
      section: ADMIN_PATHS.files,
      status: err.status,
      body: csrf => html`${problemBox(err)}
<p><strong>${readablePath(path)}</strong> is too large for the trash, so it cannot be restored once deleted. Delete it for good, or cancel and keep it.</p>
<form method="post" action="${ADMIN_PATHS.delete}">${csrfField(csrf)}<input type="hidden" name="path" value="${path}"><input type="hidden" name="forever" value="yes">${typeof form.count === 'string' ? html`<input type="hidden" name="count" value="${form.count}">` : ''}
<p><button type="submit">Delete for good</button> <a class="button secondary" href="${filesPage(back)}">Cancel</a></p></form>`,
    })
  }
  return seeOther(filesPage(back, { what: 'delete', name: nameOf(path) }))
}
