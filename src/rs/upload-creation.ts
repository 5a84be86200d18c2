// Resumable uploads, part 1 (IETF draft-ietf-httpbis-resumable-upload §4.2): a PUT or POST of a file that asks for an
// upload resource gets one, after the same access decision the plain request gets and before any byte is stored.

import { HttpError } from '../http/errors.ts'
import { RS_PATHS } from '../http/pod-paths.ts'
import { isContainerPath } from '../store/paths.ts'
import { openUploadsOf, putUpload, type UploadRecord } from '../store/upload-records.ts'
import type { Principal } from '../auth/principal.ts'
import { planPut } from './handle-put.ts'
import { planPost, wantsContainer } from './handle-post.ts'
import { fileTypeOf } from '../resources/receive-content.ts'
import { byteCountOf, interopVersionOf, uploadCompleteOf, uploadLimit, uploadState } from './upload-fields.ts'
import { appendToUpload } from './upload-append.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

/** Uploads in progress one agent may hold at once. */
export const MAX_OPEN_UPLOADS = 32

/** The creation request's headers that its write needs again when the upload completes. */
const KEPT_HEADERS = ['content-type', 'if-match', 'if-none-match', 'slug', 'link'] as const

/**
 * A creation request this pod makes resumable: an interop version it speaks, `Upload-Complete: ?0`, and a
 * file (RDF and containers are parsed whole, so they stay ordinary requests). `Upload-Complete: ?1` is an
 * ordinary upload too: without a 104 interim response (Bun.serve sends none) the client could not learn the
 * upload resource before the final answer, so keeping its bytes would serve nobody.
 */
export function asksForUploadResource(r: RsRequest, method: 'PUT' | 'POST'): number | undefined {
  const { headers } = r.request
  const version = interopVersionOf(headers)
  if (version === undefined || uploadCompleteOf(headers) !== false) return undefined
  const container = method === 'PUT' ? isContainerPath(r.target.path) : wantsContainer(headers.get('link'))
  return fileTypeOf(headers.get('content-type'), container) === undefined ? undefined : version
}

/** Who may use an upload resource: the agent that started it (its WebID and client, or its keys), nobody else. */
export function agentOf(p: Principal): string {
  if (p.webid !== undefined) return `webid ${p.webid} ${p.clientId ?? ''}`
  if (p.keys.length > 0) return `keys ${[...p.keys].sort().join(' ')}`
  return 'anonymous'
}

export const uploadUrl = (baseUrl: string, id: string) => `${baseUrl}${RS_PATHS.uploads}${id}`

/** §4.2.2: authorizes as the plain PUT or POST would, makes the upload resource, stores what the request carries, answers 201 with its Location. */
export async function createUpload(ctx: RsContext, r: RsRequest, method: 'PUT' | 'POST', version: number): Promise<Response> {
  const { store, cfg, now } = ctx.deps
  const plan = method === 'PUT' ? await planPut(ctx, r) : await planPost(ctx, r)
  const length = byteCountOf(r.request.headers, 'upload-length')
  const limit = (secondsLeft: number) => uploadLimit(version, { ...(cfg.maxBodyBytes === undefined ? {} : { maxSize: cfg.maxBodyBytes }), secondsLeft })
  if (length !== undefined && cfg.maxBodyBytes !== undefined && length > cfg.maxBodyBytes) {
    throw new HttpError(413, 'payload_too_large', `the upload is larger than this pod accepts (${cfg.maxBodyBytes} bytes)`, {
      headers: { 'upload-limit': limit(cfg.uploadExpirySeconds) },
    })
  }
  // Each upload holds a file and a record for a day: one agent (anonymous writers share one) gets a bounded number.
  if ((await openUploadsOf(store, agentOf(r.principal), now())) >= MAX_OPEN_UPLOADS) {
    throw new HttpError(
      429,
      'too_many_uploads',
      `${MAX_OPEN_UPLOADS} uploads of yours are in progress already; complete or cancel one (DELETE its upload resource) first`,
    )
  }
  const id = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
  const headers: Record<string, string> = {}
  for (const name of KEPT_HEADERS) {
    const value = r.request.headers.get(name)
    if (value !== null) headers[name] = value
  }
  const upload: UploadRecord = { method, path: r.target.path, headers, agent: agentOf(r.principal), offset: 0, ...(length === undefined ? {} : { length }) }
  // The record first: the sweep removes an upload's file that no live record names.
  await putUpload(store, id, upload, now() + cfg.uploadExpirySeconds * 1000)
  await store.blobs.startPartial(id)
  const stored = r.request.body === null ? upload : (await appendToUpload(ctx, r, id, upload, new AbortController().signal)).upload
  return new Response(null, {
    status: 201,
    headers: {
      location: uploadUrl(cfg.baseUrl, id),
      'wac-allow': plan.wacAllow,
      ...uploadState({ offset: stored.offset, complete: false, ...(length === undefined ? {} : { length }), limit: limit(cfg.uploadExpirySeconds) }),
    },
  })
}
