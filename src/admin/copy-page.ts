// Copy to… without JavaScript: a page with the folder to copy a file or folder into (typed, or chosen with the folder
// picker), then the layer's copy as the owner. The copy keeps its name, or gets the next free numbered one there
// ("report (2).pdf", as uploads do): nothing is ever replaced. What a folder holds that cannot be copied is named.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { asSentence, html } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { isAcl } from '../store/acl-names.ts'
import { readableName, readablePath, readablePathsIn } from '../lib/readable-path.ts'
import { countOf } from '../lib/count-words.ts'
import type { CopyFailure } from '../resources/copy-tree.ts'
import { podPath } from './browse.ts'
import { ownerActing } from './owner-acting.ts'
import { metaAsOwner } from './owner-read.ts'
import { csrfField, renderOwnerPage, seeOther } from './owner-page.ts'
import { filesPage, freeName } from './files-page.ts'
import { folderPickerHtml, pickFolders, typedFolder } from './folder-picker.ts'

type CopyDeps = Pick<Deps, 'cfg' | 'store' | 'resources'>

/** The Copy page of `path` browsing `folder` (the picker's links). */
export const copyPage = (path: string, folder?: string) =>
  `${ADMIN_PATHS.copy}?path=${encodeURIComponent(path)}${folder === undefined ? '' : `&in=${encodeURIComponent(folder)}`}`

/** "Copy X": the page each Copy link leads to; `query.in` is the folder the picker browses (where X is, unless a picker link said otherwise). */
export async function showCopyPage(deps: CopyDeps, cookieHeader: string | null, query: Record<string, unknown>): Promise<Response> {
  const path = podPath(query.path)
  const meta = await metaAsOwner(deps, path)
  if (!meta || path === '/') throw new HttpError(404, 'not_found', path === '/' ? 'the root of the pod cannot be copied' : `there is nothing at ${path}`)
  const folder = query.in === undefined || query.in === '' ? (parentPath(path) ?? '/') : podPath(query.in)
  const picked = await pickFolders(deps, folder)
  const isFolder = meta.kind === 'container'
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Copy ${readableName(path)}`,
    section: ADMIN_PATHS.files,
    body: csrf => html`<p>Copy ${isFolder ? 'the folder ' : ''}<strong>${readablePath(path)}</strong>${isFolder ? ' with everything in it' : ''} into a folder. It keeps its name, or gets a number if the name is taken there. Who may access it is not copied.</p>
<form method="post" action="${ADMIN_PATHS.copy}">${csrfField(csrf)}<input type="hidden" name="path" value="${path}">
<label for="copy-folder">Into the folder</label><input type="text" id="copy-folder" name="folder" value="${readablePath(folder)}" required autocomplete="off">
<p><button type="submit">Copy here</button> <a class="button secondary" href="${filesPage(parentPath(path) ?? '/')}">Cancel</a></p></form>
${folderPickerHtml(picked, f => copyPage(path, f), [path], 'copied')}`,
  })
}

/** Why a member was not copied, in a person's words: a refusal of access says so, any other its own description. */
const whyNot = (f: CopyFailure) => (f.status === 401 || f.status === 403 ? 'its sharing settings do not let you read it' : readablePathsIn(f.description))

/**
 * The form's answer: the item copied into the folder under the first free name of its own, then that folder with a
 * notice; a folder whose members were not all copied gets a page naming them, and the way to the copy.
 */
export async function submitCopyPage(deps: CopyDeps, cookieHeader: string | null, form: Record<string, unknown>): Promise<Response> {
  const from = podPath(form.path)
  if (from === '/') throw new HttpError(404, 'not_found', 'the root of the pod cannot be copied')
  // Access is not content: a copy of an ACL into a folder would become that folder's ACL
  if (isAcl(from)) throw new HttpError(400, 'invalid_path', 'an ACL is not copied: share the copy on its own sharing page')
  const folder = await typedFolder(deps, form.folder)
  // A PUT would make a folder that is not there: a copy goes only into one that is
  if ((await metaAsOwner(deps, folder))?.kind !== 'container') throw new HttpError(404, 'not_found', `there is no folder ${readablePath(folder)}`)
  const name = await freeName(deps, folder, readableName(from))
  const to = podPath(`${folder}${encodeURIComponent(name)}${isContainerPath(from) ? '/' : ''}`)
  const failed = await deps.resources.copyTree(ownerActing(deps.cfg.baseUrl), from, to, {
    deep: true,
    // Never replacing: the free name was found before, and a name taken meanwhile is refused (412), not overwritten
    preconditions: { ifMatch: null, ifNoneMatch: '*' },
  })
  if (failed.length === 0) return seeOther(filesPage(folder, { what: 'copy', name }))
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Copied ${readableName(from)}, except ${countOf(failed.length, 'item')}`,
    section: ADMIN_PATHS.files,
    body: () => html`<p>The copy is <strong>${readablePath(to)}</strong>. ${failed.length === 1 ? 'This item in it was' : 'These items in it were'} not copied:</p>
<ul id="not-copied">${failed.map(f => html`<li><strong>${readablePath(f.path)}</strong>: ${asSentence(whyNot(f))}</li>`)}</ul>
<p class="actions"><a class="button" href="${filesPage(to)}">Open the copy</a> <a class="button secondary" href="${filesPage(folder)}">Open ${readablePath(folder)}</a></p>`,
  })
}
