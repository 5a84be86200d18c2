// A file's bytes for the owner's previews: `<img>`, `<audio>`/`<video>` (with Range, so a film seeks
// without being read whole) and a PDF opened in a tab. Only the kinds lib/preview-kind.ts names; the
// rest is downloaded (files-page.ts), so nothing stored is ever shown as a page of the pod's origin.

import { HttpError } from '../http/errors.ts'
import type { Deps } from '../deps.ts'
import { isContainerPath } from '../store/paths.ts'
import { bareType, previewKind } from '../lib/preview-kind.ts'
import { podPath } from './browse.ts'
import { readAsOwner } from './owner-read.ts'

/** What the operations layer's representation says about the bytes that a browser's media element needs to seek and cache. */
const PASSED_ON = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'last-modified'] as const

export async function previewFile(deps: Pick<Deps, 'cfg' | 'resources'>, request: Request, raw: unknown): Promise<Response> {
  const path = podPath(raw)
  if (isContainerPath(path)) throw new HttpError(400, 'not_a_document', `${path} is a folder: open it in Files`)
  // Only what a media element needs to seek; the browser's cache validators are not passed on (never a 304)
  const passed = new Headers()
  for (const name of ['range', 'if-range']) {
    const value = request.headers.get(name)
    if (value) passed.set(name, value)
  }
  const res = await readAsOwner(deps, path, '*/*', passed)
  const type = res.headers.get('content-type') ?? ''
  if (previewKind(type) === undefined) {
    await res.body?.cancel()
    throw new HttpError(415, 'unsupported_media_type', `${bareType(type) || 'this kind of file'} is not shown in the page; download it instead`)
  }
  const headers = new Headers()
  for (const name of PASSED_ON) {
    const value = res.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  // Opened on its own (a PDF in a tab) it is still no page of ours: no script, no sniffing into HTML.
  // Chromium's PDF viewer shows a top-level PDF under `sandbox` (checked in Chromium 156 by
  // test/browser/dashboard-previews.test.ts; older versions refused only sandboxed frames), so PDFs keep it.
  headers.set('content-disposition', 'inline')
  headers.set('content-security-policy', 'sandbox')
  headers.set('x-content-type-options', 'nosniff')
  headers.set('cache-control', 'private, no-cache')
  return new Response(res.body, { status: res.status, headers })
}
