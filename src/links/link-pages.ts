// The pages a browser gets through a share link: one file (its preview and a download), a folder (its list), a
// file drop (the form that adds files). Every href is relative to the link's own URL, so the page names no
// path of the pod outside the link.

import { html, problemBox, renderPage, type SafeHtml } from '../http/html-page.ts'
import { localTime } from '../http/local-time.ts'
import type { HttpError } from '../http/errors.ts'
import type { ShareLink } from '../account/share-links.ts'
import { canUpload } from '../account/share-links.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import type { MemberListing } from '../resources/member-listing.ts'
import { isContainerPath } from '../store/paths.ts'
import { previewKind } from '../lib/preview-kind.ts'
import { readableName } from '../lib/readable-path.ts'
import { SEPARATOR } from '../lib/separator.ts'

const page = (heading: string, body: SafeHtml) => renderPage('link.html', heading, { heading, body })

const expiry = (link: ShareLink) => (link.expiresAt === undefined ? '' : html`<p class="hint">This link works until ${localTime(link.expiresAt)}.</p>`)

function preview(href: string, meta: ResourceMeta): SafeHtml {
  const kind = previewKind(meta.contentType)
  const src = `${href}?preview`
  if (kind === 'image') return html`<p><img class="preview" src="${src}" alt=""></p>`
  if (kind === 'video') return html`<p><video class="preview" src="${src}" controls preload="metadata"></video></p>`
  if (kind === 'audio') return html`<p><audio src="${src}" controls preload="metadata"></audio></p>`
  return html``
}

export function filePage(link: ShareLink, href: string, name: string, meta: ResourceMeta): Promise<Response> {
  // A preview would use up one of a limited link's downloads before the download was asked for
  return page(
    name,
    html`${link.maxDownloads === undefined ? preview(href, meta) : ''}<p class="actions"><a class="button" href="${href}?download" download>Download ${name}</a></p>${expiry(link)}`,
  )
}

export function folderPage(link: ShareLink, base: string, relative: string, listing: MemberListing): Promise<Response> {
  const heading = readableName(link.path + relative) || 'Shared folder'
  const rows = listing.items.map(m => {
    const href = base + m.path.slice(link.path.length)
    const name = readableName(m.path)
    return isContainerPath(m.path)
      ? html`<li><a href="${href}">${name}/</a></li>`
      : html`<li><a href="${href}">${name}</a>${SEPARATOR}<a href="${href}?download" download>download</a></li>`
  })
  const more =
    listing.countIsExact && listing.count <= listing.items.length
      ? ''
      : html`<p class="hint">Showing the first ${listing.items.length} of ${listing.count}${listing.countIsExact ? '' : '+'} items.</p>`
  const up = relative === '' ? '' : html`<p><a href="${base}">Back to the top of the shared folder</a></p>`
  const drop = canUpload(link.allows) && relative === '' ? uploadForm(base) : ''
  // The whole folder (this one, inside the link) as one zip of what the link may read
  const zip = rows.length === 0 ? '' : html`<p class="actions"><a class="button" href="${base + relative}?download=zip" download>Download all (zip)</a></p>`
  return page(
    heading,
    html`${up}${zip}${rows.length === 0 ? html`<p>This folder is empty.</p>` : html`<ul class="files">${rows}</ul>`}${more}${drop}${expiry(link)}`,
  )
}

const uploadForm = (base: string) => html`<form method="post" action="${base}" enctype="multipart/form-data">
<p><label>Add files <input type="file" name="file" multiple required></label></p>
<p class="actions"><button type="submit">Upload</button></p></form>`

/** A file drop: the form, and after an upload how many files arrived (`received`, 0: none yet). Nothing of what the folder holds. */
export function uploadedPage(link: ShareLink, base: string, received: number): Promise<Response> {
  const heading = link.name || 'Send files'
  const notice =
    received > 0 ? html`<p class="notice" role="status">${received === 1 ? 'Your file was received.' : `Your ${received} files were received.`}</p>` : ''
  return page(heading, html`${notice}${uploadForm(base)}${expiry(link)}`)
}

/**
 * The form a link with a password asks it on; `error` says why it is shown (none given yet, a wrong one, or too
 * many wrong ones: then even the right one waits), with the refusal's status.
 */
export function passwordPage(link: ShareLink, base: string, error: HttpError): Promise<Response> {
  const heading = link.name || 'This link asks for a password'
  const why =
    error.code === 'link_password_required'
      ? html`<p>Whoever sent you this link also has its password: ask them for it if they did not give it to you.</p>`
      : problemBox(error)
  const wait = error.status === 429 ? html`<p class="hint">Until the wait is over, even the right password is refused. Try again later.</p>` : ''
  return renderPage(
    'link.html',
    heading,
    {
      heading,
      body: html`${why}${wait}<form method="post" action="${base}">
<p><label>Password <input type="password" name="link-password" autocomplete="current-password" required autofocus></label></p>
<p class="actions"><button type="submit">Open</button></p></form>${expiry(link)}`,
    },
    // No Basic challenge to a browser: it would answer it with its own dialog instead of showing this form
    { status: error.status, headers: Object.fromEntries(Object.entries(error.headers).filter(([k]) => k.toLowerCase() !== 'www-authenticate')) },
  )
}
