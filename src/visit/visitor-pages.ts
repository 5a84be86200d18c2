// The visitor's pages: what is shared with them (a list, a folder, a file with its preview), uploading
// where they may append, editing text where they may write. Rendered by the pod, no script; every read
// and write is the operations layer's, as the visitor (plugin.ts), so only the decisions an app of theirs gets count.

import type { Quad } from '@rdfjs/types'
import { asSentence, breakableUrl, html, renderPage, type SafeHtml } from '../http/html-page.ts'
import { previewKind } from '../lib/preview-kind.ts'
import { VISIT_PATHS } from '../http/pod-paths.ts'
import { formatBytes } from '../lib/format-bytes.ts'
import { readableName, readablePath } from '../lib/readable-path.ts'
import { localTime } from '../http/local-time.ts'
import type { VisitorSession } from '../account/visitor-sessions.ts'
import type { SharedItem } from '../policy/shared-with.ts'
import type { AccessMode } from '../policy/access-modes.ts'
import { SEPARATOR } from '../lib/separator.ts'

const LDP = 'http://www.w3.org/ns/ldp#'
const STAT = 'http://www.w3.org/ns/posix/stat#'
const DCTERMS = 'http://purl.org/dc/terms/'

export const filesPage = (path: string) => `${VISIT_PATHS.files}?path=${encodeURIComponent(path)}`
export const filePage = (path: string, download = false) => `${VISIT_PATHS.file}?path=${encodeURIComponent(path)}${download ? '&download=1' : ''}`

/** The visitor's name for a path: its last segment, as people read it. */
export const nameOf = (path: string) => readableName(path) || '/'

export interface VisitorPage {
  readonly heading: string
  readonly session?: VisitorSession
  readonly csrf: string
  readonly notice?: string
  readonly status?: number
  readonly headers?: Record<string, string | string[]>
  readonly body: SafeHtml
}

export function renderVisitorPage(p: VisitorPage): Promise<Response> {
  const who = p.session
    ? html`<p class="muted">Signed in as <code>${breakableUrl(p.session.webid)}</code>${SEPARATOR}<a href="${VISIT_PATHS.files}">Shared with you</a></p>
<form class="inline" method="post" action="${VISIT_PATHS.signOut}"><input type="hidden" name="csrf" value="${p.csrf}"><button type="submit" class="small secondary">Sign out</button></form>`
    : html``
  return renderPage(
    'visitor.html',
    p.heading,
    {
      heading: p.heading,
      who,
      body: p.body,
      notice: p.notice ? html`<p class="notice" role="status">${p.notice}</p>` : undefined,
    },
    { status: p.status ?? 200, headers: { ...p.headers } },
  )
}

const describeModes = (modes: ReadonlySet<AccessMode>) =>
  modes.has('write') ? 'you may change it' : modes.has('append') ? 'you may add to it' : 'you may read it'

/** Everything shared with the visitor, as starting points. */
export function sharedListBody(items: readonly SharedItem[]): SafeHtml {
  if (items.length === 0)
    return html`<p>Nothing here is shared with you yet. If someone sent you a link, open it again: it may have been shared after you signed in, or with another WebID.</p>`
  return html`<ul class="shared-list">${items.map(i => html`<li><a href="${filesPage(i.path)}">${i.path.endsWith('/') ? '📁 ' : ''}${readablePath(i.path)}</a> <span class="muted">(${describeModes(i.modes)})</span></li>`)}</ul>`
}

export interface Member {
  readonly path: string
  readonly size?: number
  readonly modified?: number
}

/** The members of a container from its LDP listing (ldp:contains), folders first. */
export function membersOf(quads: readonly Quad[], containerUrl: string, baseUrl: string): Member[] {
  const members = quads
    .filter(q => q.subject.value === containerUrl && q.predicate.value === `${LDP}contains` && q.object.value.startsWith(containerUrl))
    .map(q => q.object.value)
  const about = (url: string, p: string) => quads.find(q => q.subject.value === url && q.predicate.value === p)?.object.value
  return members
    .map(url => {
      const size = Number(about(url, `${STAT}size`))
      const modified = Date.parse(about(url, `${DCTERMS}modified`) ?? '')
      return { path: url.slice(baseUrl.length), ...(Number.isFinite(size) ? { size } : {}), ...(Number.isFinite(modified) ? { modified } : {}) }
    })
    .sort((a, b) => Number(b.path.endsWith('/')) - Number(a.path.endsWith('/')) || a.path.localeCompare(b.path))
}

export function folderBody(path: string, members: readonly Member[], modes: ReadonlySet<AccessMode>, csrf: string): SafeHtml {
  const rows = members.map(
    m => html`<tr><td data-label="Name"><a href="${filesPage(m.path)}">${m.path.endsWith('/') ? '📁 ' : ''}${nameOf(m.path)}</a></td>
<td data-label="Size">${m.path.endsWith('/') ? '' : m.size !== undefined ? formatBytes(m.size) : ''}</td><td data-label="Changed">${m.modified !== undefined ? localTime(m.modified) : ''}</td></tr>`,
  )
  const upload =
    modes.has('append') || modes.has('write')
      ? html`<h2>Add a file here</h2><form method="post" action="${VISIT_PATHS.upload}" enctype="multipart/form-data">
<input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="path" value="${path}">
<label for="file">File</label> <input id="file" type="file" name="file" required> <button type="submit">Upload</button></form>`
      : html``
  // A line of its own is a sentence ("You may add to it."); beside a list item or a type it stays a phrase
  return html`<p class="muted" id="may">${asSentence(describeModes(modes))}</p>
<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">Size</th><th scope="col">Changed</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="3" class="muted">This folder is empty</td></tr>`}</tbody></table></div>${upload}`
}

export function documentBody(path: string, type: string, modes: ReadonlySet<AccessMode>, text: string | undefined): SafeHtml {
  const src = filePage(path)
  const kind = previewKind(type)
  const preview =
    kind === 'image'
      ? html`<p><img class="preview" src="${src}" alt="${nameOf(path)}"></p>`
      : kind === 'video'
        ? html`<p><video class="preview" controls preload="metadata" src="${src}"></video></p>`
        : kind === 'audio'
          ? html`<p><audio controls preload="metadata" src="${src}"></audio></p>`
          : kind === 'pdf'
            ? html`<p><a class="button" href="${src}">Open the PDF</a></p>`
            : kind === 'text' && text !== undefined
              ? html`<pre class="preview-text">${text}</pre>`
              : html`<p class="muted">This kind of file (${type}) is not shown here; download it to open it.</p>`
  const edit =
    kind === 'text' && modes.has('write') ? html` <a class="button secondary" href="${VISIT_PATHS.edit}?path=${encodeURIComponent(path)}">Edit</a>` : html``
  const folder = path.replace(/[^/]*$/, '')
  return html`<p class="muted">${type}${SEPARATOR}${modes.has('write') ? 'you may change it' : 'you may read it'}</p>${preview}
<p><a class="button" href="${filePage(path, true)}">Download</a>${edit} <a class="button secondary" href="${filesPage(folder)}">Back to the folder</a></p>`
}

export function editBody(path: string, text: string, etag: string, csrf: string): SafeHtml {
  return html`<form method="post" action="${VISIT_PATHS.edit}"><input type="hidden" name="csrf" value="${csrf}">
<input type="hidden" name="path" value="${path}"><input type="hidden" name="etag" value="${etag}">
<label for="text">Text of ${nameOf(path)}</label><textarea id="text" name="text" rows="20">${text}</textarea>
<p><button type="submit">Save</button> <a class="button secondary" href="${filesPage(path)}">Cancel</a></p></form>`
}

export function signInBody(returnTo: string, csrf: string, typed = ''): SafeHtml {
  return html`<p>Someone shared something on this pod with you. Sign in with your own Solid identity to see it: your pod's address or your provider's (such as <code>https://solidcommunity.net</code>), or your WebID.</p>
<form method="post" action="${VISIT_PATHS.signIn}"><input type="hidden" name="csrf" value="${csrf}"><input type="hidden" name="return" value="${returnTo}">
<label for="who">Your WebID or pod provider</label> <input type="text" inputmode="url" autocapitalize="off" spellcheck="false" id="who" name="who" value="${typed}" placeholder="https://you.example/profile/card#me" autocomplete="url" required>
<p><button type="submit">Sign in with your pod</button></p></form>
<p class="muted">You are sent to your own provider to sign in; this pod learns only your WebID. It never sees your password.</p>`
}
