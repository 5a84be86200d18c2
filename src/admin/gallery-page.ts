// A folder's photos and films as a grid (issue 40): each tile the image itself, scaled by the browser and loaded
// as it scrolls into view, opening the viewer (view-page.ts) with Previous and Next. A page holds at most a page of
// the folder's members (browse.ts), so a folder of 10,000 photos opens as fast as one of ten; its other files are
// in Files.

import type { Deps } from '../deps.ts'
import { html } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { previewKind } from '../lib/preview-kind.ts'
import { browseContainer } from './browse.ts'
import { renderOwnerPage } from './owner-page.ts'
import { SEPARATOR } from '../lib/separator.ts'

const q = (path: string) => `?path=${encodeURIComponent(path)}`
export const galleryPage = (path: string) => ADMIN_PATHS.gallery + q(path)

export async function showGalleryPage(deps: Pick<Deps, 'cfg' | 'store' | 'resources'>, cookieHeader: string | null, query: Record<string, unknown>) {
  const list = await browseContainer(deps, { path: query.path ?? '/', after: query.after, before: query.before })
  const { path } = list
  const media = list.items.filter(it => it.kind !== 'container' && ['image', 'video', 'audio'].includes(previewKind(it.contentType ?? '') ?? ''))
  const pager =
    list.next === null && list.prev === null
      ? ''
      : html`<p class="actions">${list.prev !== null ? html`<a href="${galleryPage(path)}&before=${encodeURIComponent(list.prev)}" rel="prev">Previous page</a>` : ''}
${list.next !== null ? html`<a href="${galleryPage(path)}&after=${encodeURIComponent(list.next)}" rel="next">Next page</a>` : ''}</p>`
  const tile = (it: (typeof media)[number]) => {
    const kind = previewKind(it.contentType ?? '')
    const name = readableName(it.path)
    const view = `${ADMIN_PATHS.view}${q(it.path)}`
    return kind === 'image'
      ? html`<li><a href="${view}" title="${name}"><img class="tile" src="${ADMIN_PATHS.preview}${q(it.path)}" alt="${name}" loading="lazy" decoding="async"></a></li>`
      : html`<li><a href="${view}" class="tile media" title="${name}"><span aria-hidden="true">${kind === 'video' ? '▶' : '♪'}</span><span class="tile-name">${name}</span></a></li>`
  }
  return renderOwnerPage(deps, cookieHeader, {
    heading: `Photos and films in ${path === '/' ? 'your pod' : readablePath(path)}`,
    section: ADMIN_PATHS.files,
    body: () => html`<p class="muted"><a href="${ADMIN_PATHS.files}${q(path)}">Show as a list</a>${SEPARATOR}in name order${
      list.items.length > media.length
        ? `${SEPARATOR}${list.items.length - media.length === 1 ? '1 other item on this page is' : `${list.items.length - media.length} other items on this page are`} in the list`
        : ''
    }</p>
${media.length > 0 ? html`<ul class="gallery">${media.map(tile)}</ul>` : html`<p class="muted">No photos or films${list.prev !== null || list.next !== null ? ' on this page' : ' in this folder'}.</p>`}
${pager}`,
  })
}
