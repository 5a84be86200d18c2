// Large files go up as a resumable upload (IETF draft-ietf-httpbis-resumable-upload, interop version 8): one
// PATCH per chunk, and after a network error the upload carries on from the offset the pod says it holds.

import { ApiError, ldp } from './api.ts'

/** Files above this size are uploaded resumably; smaller ones go in one PUT. */
export const RESUMABLE_FROM = 8 * 1024 * 1024
const CHUNK = 8 * 1024 * 1024
/** Waits between attempts after a network error: about a minute and a half in all, then the upload fails. */
const RETRY_DELAYS = [500, 1000, 2000, 4000, 8000, 15000, 30000, 30000]
const DRAFT = { 'upload-draft-interop-version': '8' }

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
const isNetwork = (err: unknown) => err instanceof ApiError && err.status === 0

/**
 * PUTs `file` to `url` as a resumable upload. Rejects with the pod's ApiError as a plain PUT would (412 when
 * `onlyNew` and the name is taken), or once the network has failed for every retry.
 */
export async function putResumably(
  url: string,
  file: Blob,
  contentType: string,
  onProgress: (sent: number, total: number) => void,
  what: string,
  onlyNew = false,
): Promise<void> {
  // Careful creation (§9.2): no content, so the upload resource is known before a byte is sent.
  const created = await ldp(
    'PUT',
    url,
    {
      headers: {
        ...DRAFT,
        'upload-complete': '?0',
        'upload-length': String(file.size),
        'content-type': contentType,
        ...(onlyNew ? { 'if-none-match': '*' } : {}),
      },
    },
    what,
  )
  const upload = new URL(created.headers.get('location')!, url).href
  let offset = 0
  let attempt = 0
  for (;;) {
    try {
      const end = Math.min(offset + CHUNK, file.size)
      const res = await ldp(
        'PATCH',
        upload,
        {
          headers: {
            ...DRAFT,
            'content-type': 'application/partial-upload',
            'upload-offset': String(offset),
            'upload-complete': end === file.size ? '?1' : '?0',
          },
          body: file.slice(offset, end),
        },
        what,
      )
      offset = Number(res.headers.get('upload-offset') ?? end)
      attempt = 0
      onProgress(offset, file.size)
      if (res.headers.get('upload-complete') === '?1') return
    } catch (err) {
      if (!isNetwork(err) || attempt >= RETRY_DELAYS.length) {
        // Given up: the pod need not keep the bytes until they expire.
        void ldp('DELETE', upload, {}, what).catch(() => undefined)
        throw err
      }
      await sleep(RETRY_DELAYS[attempt++]!)
      // §4.3: the pod says how much it kept; carry on from there.
      offset = await offsetOf(upload, what).catch(() => offset)
      onProgress(offset, file.size)
    }
  }
}

async function offsetOf(upload: string, what: string): Promise<number> {
  const res = await ldp('HEAD', upload, { headers: DRAFT }, what)
  return Number(res.headers.get('upload-offset'))
}
