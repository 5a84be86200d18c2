// "Download as zip" on the Files page: a folder, or the rows selected in it, as one zip streamed through the
// operations layer as the owner (resources/folder-zip.ts). A GET, as every download of the dashboard is: it
// changes nothing, and the owner's SameSite cookie goes with no other site's request.

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { contentDisposition } from '../http/content-disposition.ts'
import { isContainerPath } from '../store/paths.ts'
import { zipName } from '../resources/folder-zip.ts'
import { podPath } from './browse.ts'
import { ownerActing } from './owner-acting.ts'
import { selectedItems } from './selection-pages.ts'

/**
 * `path` (a folder) whole, or, from the selection's button (`selected=yes`), only the `item`s ticked in it: none
 * ticked is 400 `nothing_selected`, as the selection's other buttons answer.
 */
export async function downloadZip(deps: Pick<Deps, 'cfg' | 'resources'>, query: URLSearchParams): Promise<Response> {
  const path = podPath(query.get('path') ?? '/')
  if (!isContainerPath(path)) throw new HttpError(400, 'not_a_container', `${path} is not a folder: folder paths end with "/"`)
  const only = query.get('selected') === 'yes' ? selectedItems(query.getAll('item')) : undefined
  const body = await deps.resources.zip(ownerActing(deps.cfg.baseUrl), path, only ? { only } : {})
  return new Response(body, {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': contentDisposition('attachment', zipName(path)),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  })
}
