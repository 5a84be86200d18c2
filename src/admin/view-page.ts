// One file without JavaScript: its preview (an image, a film or a sound played in the page, a PDF opened
// in a tab, text shown as text, Markdown rendered (markdown-view.ts) with Show as text one click away) above the links to download, edit (Turtle, text, Markdown),
// share and delete it. Turtle is shown as written with each IRI a link (turtle-links.ts).

import type { Deps } from '../deps.ts'
import { HttpError } from '../http/errors.ts'
import { html, type SafeHtml } from '../http/html-page.ts'
import { ADMIN_PATHS } from '../http/pod-paths.ts'
import { formatBytes } from '../lib/format-bytes.ts'
import { readableName } from '../lib/readable-path.ts'
import { MAX_PREVIEW_TEXT_BYTES, bareType, isEditableText, previewKind } from '../lib/preview-kind.ts'
import { isContainerPath, parentPath } from '../store/paths.ts'
import { podPath } from './browse.ts'
import { renderOwnerPage } from './owner-page.ts'
import { turtleWithLinks } from './turtle-links.ts'
import { openAsOwner } from './owner-read.ts'
import type { RenderedMarkdown } from './markdown-view.ts'
import { mediaNeighbours, type Neighbours } from './media-neighbours.ts'
import { SEPARATOR } from '../lib/separator.ts'

// Markdown (marked) and EXIF (exifr) load with the first page that shows one, not on every start (docs/performance.md).
const loadMarkdown = () => import('./markdown-view.ts')
const loadPhotoTaken = () => import('./photo-taken.ts')

const nameOf = readableName
const q = (path: string) => `?path=${encodeURIComponent(path)}`
export const viewPage = (path: string) => ADMIN_PATHS.view + q(path)
/** Turtle for RDF (what the page shows of it), any type for the rest. */
const ACCEPT = 'text/turtle;q=1, */*;q=0.5'

export async function showViewPage(deps: Pick<Deps, 'cfg' | 'store' | 'resources'>, request: Request, raw: unknown): Promise<Response> {
  const path = podPath(raw)
  if (isContainerPath(path)) throw new HttpError(400, 'not_a_document', `${path} is a folder: open it in Files`)
  // Read decided once. A file: a HEAD for its type and size, then only the bytes shown (a small text's body, a
  // photo's first 128 KiB for its EXIF date); the browser fetches an image or a film itself from the preview route.
  // An RDF document is shown as its Turtle, serialized once.
  const doc = await openAsOwner(deps, path)
  const isFile = doc.meta.kind === 'binary'
  const res = isFile ? await doc.head(ACCEPT) : await doc.get(ACCEPT)
  const type = bareType(res.headers.get('content-type') ?? 'application/octet-stream')
  const size = Number(res.headers.get('content-length') ?? NaN)
  const kind = previewKind(type)
  const text = kind === 'text' && !(size > MAX_PREVIEW_TEXT_BYTES) ? await (isFile ? await doc.get(ACCEPT) : res).text() : undefined
  if (!isFile && text === undefined) await res.body?.cancel()
  const shown = new URL(request.url)
  const isMedia = kind === 'image' || kind === 'video' || kind === 'audio'
  const around = isMedia ? await mediaNeighbours(deps, path) : undefined
  const taken = kind === 'image' ? await (await loadPhotoTaken()).photoTaken(doc) : undefined
  const markdown =
    type === 'text/markdown' && text !== undefined && shown.searchParams.get('as') !== 'text'
      ? (await loadMarkdown()).renderMarkdown(text, shown.searchParams.get('images') === 'yes')
      : undefined
  return renderOwnerPage(deps, request.headers.get('cookie'), {
    heading: nameOf(path),
    section: ADMIN_PATHS.files,
    body: () => html`${
      taken
        ? html`<p>Taken ${taken}</p>
`
        : ''
    }<p class="muted">${type}${Number.isFinite(size) ? `${SEPARATOR}${formatBytes(size)}` : ''}</p>
${around ? mediaNav(path, around) : ''}
${
  type === 'text/turtle' && text !== undefined
    ? html`<pre class="rdf">${turtleWithLinks(text, deps.cfg.baseUrl + path, deps.cfg.baseUrl)}</pre>`
    : markdown
      ? markdownOf(path, markdown)
      : previewOf(path, type, text)
}
<p class="actions"><a class="button" href="${ADMIN_PATHS.download}${q(path)}">Download</a>
${type === 'text/turtle' || isEditableText(type) ? html`<a class="button secondary" href="${ADMIN_PATHS.edit}${q(path)}">Edit</a>` : ''}
<a class="button secondary" href="${ADMIN_PATHS.share}${q(path)}">Share</a>
<a class="button secondary" href="${ADMIN_PATHS.history}${q(path)}">History</a>
<a class="button secondary" href="${ADMIN_PATHS.delete}${q(path)}">Delete</a>
<a class="button secondary" href="${ADMIN_PATHS.files}${q(parentPath(path) ?? '/')}">Back to the folder</a></p>`,
  })
}

/**
 * Previous and Next in the folder's photos, films and sounds (name order), and the way back to its gallery. The
 * script (static/admin/media-nav.ts) adds the arrow keys and a swipe on a phone; without it the links work.
 */
function mediaNav(path: string, around: Neighbours): SafeHtml {
  const folder = parentPath(path) ?? '/'
  return html`<nav class="media-nav actions" aria-label="Photos and films in this folder" data-enhance="media-nav">${
    around.prev ? html`<a class="button secondary" rel="prev" href="${viewPage(around.prev)}" title="${nameOf(around.prev)}">← Previous</a>` : ''
  }<a class="button secondary" href="${ADMIN_PATHS.gallery}${q(folder)}">All photos and films</a>${
    around.next ? html`<a class="button secondary" rel="next" href="${viewPage(around.next)}" title="${nameOf(around.next)}">Next →</a>` : ''
  }</nav>`
}

/** Markdown rendered, remote images only when asked, and the text as written one click away (the Edit button beside). */
function markdownOf(path: string, { html: rendered, remoteImages }: RenderedMarkdown): SafeHtml {
  return html`<p class="muted"><a href="${viewPage(path)}&as=text">Show as text</a>${remoteImages > 0 ? html`${SEPARATOR}<a href="${viewPage(path)}&images=yes">Show images</a> (${String(remoteImages)} from other sites: they see when you look)` : ''}</p>
<div class="markdown">${rendered}</div>`
}

function previewOf(path: string, type: string, text: string | undefined): SafeHtml {
  const src = ADMIN_PATHS.preview + q(path)
  switch (previewKind(type)) {
    case 'image':
      return html`<p><img class="preview" src="${src}" alt="${nameOf(path)}"></p>`
    case 'video':
      return html`<p><video class="preview" controls preload="metadata" src="${src}"></video></p>`
    case 'audio':
      return html`<p><audio controls preload="metadata" src="${src}"></audio></p>`
    case 'pdf':
      return html`<p><a class="button" href="${src}" target="_blank" rel="noopener">Open the PDF</a></p>`
    case 'text':
      return text !== undefined
        ? html`<pre class="preview-text">${text}</pre>`
        : html`<p class="muted">This text is too long to show here; download it to read it.</p>`
    default:
      return html`<p class="muted">This kind of file (${type}) is not shown here; download it to open it.</p>`
  }
}
