// Rename or move without JavaScript: a page with the new name and the folder to keep it in; nothing moves before its button.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { podPath } from './browse.ts'
import { metaAsOwner } from './owner-read.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { filesPage } from './files-page.ts'
import { moveFiles, typedPath } from './move-files.ts'
import { folderPickerHtml, pickFolders, typedFolder } from './folder-picker.ts'

type MoveDeps = Parameters<typeof moveFiles>[0]

/** The Move page of `path` browsing `folder`, with `name` in the New name field (the picker's links carry both). */
export const movePage = (path: string, folder: string, name?: string) =>
  `${ADMIN_PATHS.move}?path=${encodeURIComponent(path)}&in=${encodeURIComponent(folder)}${name === undefined ? '' : `&name=${encodeURIComponent(name)}`}`

/**
 * "Rename or move X": the page each Rename link leads to. `query.in`: the folder the picker browses (where X is,
 * unless a picker link said otherwise), which the "In the folder" field names; `query.name`: a new name typed before.
 */
export async function showMovePage(
  deps: Pick<Deps, 'cfg' | 'store' | 'resources'>,
  cookieHeader: string | null,
  query: Record<string, unknown>,
): Promise<Response> {
  const path = podPath(query.path)
  const meta = await metaAsOwner(deps, path)
  if (!meta || path === '/') throw new HttpError(404, 'not_found', path === '/' ? 'the root of the pod cannot be renamed' : `there is nothing at ${path}`)
  const typed = typeof query.name === 'string' && query.name.trim() !== '' ? query.name.trim() : undefined
  const name = typed ?? readableName(path)
  const folder = query.in === undefined || query.in === '' ? (parentPath(path) ?? '/') : podPath(query.in)
  const picked = await pickFolders(deps, folder)
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Rename or move ${readableName(path)}`,
    section: ADMIN_PATHS.files,
    body: csrf => html`<p>Rename or move ${meta.kind === 'container' ? 'the folder ' : ''}<strong>${readablePath(path)}</strong>${meta.kind === 'container' ? ' with everything in it' : ''}. Who may access it moves with it.</p>
<form method="post" action="${ADMIN_PATHS.move}">${csrfField(csrf)}<input type="hidden" name="path" value="${path}">
<label for="move-name">New name</label><input type="text" id="move-name" name="name" value="${name}" required autocomplete="off">
<label for="move-folder">In the folder</label><input type="text" id="move-folder" name="folder" value="${readablePath(folder)}" required autocomplete="off">
<p><button type="submit">Rename or move</button> <a class="button secondary" href="${filesPage(parentPath(path) ?? '/')}">Cancel</a></p></form>
${folderPickerHtml(picked, f => movePage(path, f, typed), [path])}`,
  })
}

/** The form's answer: the new name in the given folder, then the folder it is in now. */
export async function submitMovePage(deps: MoveDeps, form: Record<string, unknown>): Promise<Response> {
  const from = podPath(form.path)
  const name = typeof form.name === 'string' ? form.name.trim() : ''
  if (name === '' || name.includes('/')) throw new HttpError(400, 'invalid_name', 'a name must not be empty or contain "/"')
  const folder = await typedFolder(deps, form.folder)
  const to = typedPath(`${folder}${encodeURIComponent(name)}${isContainerPath(from) ? '/' : ''}`)
  const { path } = await moveFiles(deps, from, to)
  return seeOther(filesPage(parentPath(path) ?? '/', { what: 'move', name }))
}
