// The Move and Copy pages' folder picker (issue 40, "Move offers a folder picker"): the folders in one folder, read through
// the operations layer as the owner, each a plain link that goes into it, and a link up; the page the links lead to
// is the same Move page browsing that folder, so it works without a script. What the picker browses becomes the
// form's "folder" field; a path can be typed there instead (typedFolder).

import type { Deps } from '../deps.ts'
import { html, type SafeHtml } from '../http/html-page.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { encodeSegment } from '../store/target.ts'
import { podPath } from './browse.ts'
import { ownerActing } from './owner-acting.ts'
import { metaAsOwner } from './owner-read.ts'
import { typedPath } from './move-files.ts'
import { SEPARATOR } from '../lib/separator.ts'

type PickerDeps = Pick<Deps, 'cfg' | 'resources'>

/** Folders listed at most: a picker is for finding one, and a folder of more than this is browsed by typing its path. */
export const PICKER_MAX_FOLDERS = 200

export interface PickedFolders {
  /** The folder browsed (a stored path). */
  readonly folder: string
  /** Its folders, in the order of their names as people read them. */
  readonly folders: readonly string[]
  /** More folders than PICKER_MAX_FOLDERS. */
  readonly more: boolean
}

// The store keeps members in the order of their encoded paths (`%C3%89t%C3%A9` before `1`); people read names
const byName = (paths: string[]) => paths.sort((a, b) => readableName(a).localeCompare(readableName(b), undefined, { numeric: true }))

/** The folders in `folder`, through the layer (Read on it first; 404 or 400 not_a_container as a listing gives). */
export async function pickFolders(deps: PickerDeps, folder: string): Promise<PickedFolders> {
  const { members } = await deps.resources.listMembers(ownerActing(deps.cfg.baseUrl), folder)
  const folders: string[] = []
  for await (const chunk of members) {
    for (const m of chunk) if (m.meta.kind === 'container') folders.push(m.path)
    // Returning ends the generator, which releases the store's snapshot
    if (folders.length > PICKER_MAX_FOLDERS) return { folder, folders: byName(folders.slice(0, PICKER_MAX_FOLDERS)), more: true }
  }
  return { folder, folders: byName(folders), more: false }
}

/**
 * The picker's HTML. `linkTo(folder)`: the Move (or Copy) page browsing `folder`. `moving`: the folders being moved
 * or copied (`doing` says which), shown but not to be gone into (a folder never goes into itself or a folder inside it).
 */
export function folderPickerHtml(
  picked: PickedFolders,
  linkTo: (folder: string) => string,
  moving: readonly string[],
  doing: 'moved' | 'copied' = 'moved',
): SafeHtml {
  const { folder, folders, more } = picked
  const up = parentPath(folder)
  const isMoving = (f: string) => moving.some(m => isContainerPath(m) && f.startsWith(m))
  const rows = folders.map(f =>
    isMoving(f)
      ? html`<li><span class="muted">${readableName(f)}/ (being ${doing})</span></li>`
      : html`<li><a href="${linkTo(f)}" aria-label="Open the folder ${readableName(f)}">${readableName(f)}/</a></li>`,
  )
  return html`<section class="panel folder-picker" aria-labelledby="picker-heading" data-enhance="folder-picker">
<h2 id="picker-heading">Choose a folder</h2>
<p>Browsing <strong>${readablePath(folder)}</strong>${up ? html`${SEPARATOR}<a href="${linkTo(up)}">Up to ${readablePath(up)}</a>` : ''}</p>
${folders.length === 0 ? html`<p>No folders in it.</p>` : html`<ul class="picker-list">${rows}</ul>`}
${more ? html`<p>Only the first ${PICKER_MAX_FOLDERS} folders are shown: type the path of another above.</p>` : ''}
</section>`
}

/** A path as people read it (`/Été 2026/100% #1/`): each segment taken literally, then made canonical. */
const literalPath = (text: string): string => podPath(text.split('/').map(encodeSegment).join('/'))

/**
 * The folder a person typed, or the picker chose: a path as shown (`/Été 2026/`, where `%`, `#`, `?` and `+` are
 * part of names) or as stored (`/%C3%89t%C3%A9%202026/`). Whichever of the two names a folder that exists wins,
 * the one as shown first; when neither does, the one as shown (whose 404 names what was typed).
 */
export async function typedFolder(deps: PickerDeps, raw: unknown): Promise<string> {
  let text = typeof raw === 'string' ? raw.trim() : ''
  if (!text.startsWith('/')) text = `/${text}`
  if (!text.endsWith('/')) text += '/'
  const asShown = literalPath(text)
  if ((await metaAsOwner(deps, asShown))?.kind === 'container') return asShown
  let asStored: string | undefined
  try {
    asStored = typedPath(text)
  } catch {
    // Not valid percent-encoding (a lone `%`): only the path as shown is meant
  }
  if (asStored !== undefined && asStored !== asShown && (await metaAsOwner(deps, asStored))?.kind === 'container') return asStored
  return asShown
}
