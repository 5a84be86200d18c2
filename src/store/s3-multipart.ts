// The S3 multipart requests Bun's S3Client does not expose (its multipart lives inside one `writer()` of one
// process), signed by aws4fetch (AWS Signature Version 4): a resumable upload's parts are sent across requests and
// restarts of the pod under one UploadId. The endpoint is the operator's configuration, never a request's: each call
// is bounded by the bucket's time limit and any failure is the store being unavailable (as in s3-blob-store.ts).

import { AwsClient } from 'aws4fetch'
import { BlobStoreUnavailable } from './blob-store.ts'
import { socketPut } from './socket-put.ts'
import type { S3BlobConfig } from '../config.ts'

export interface SentPart {
  readonly n: number
  readonly size: number
  readonly etag: string
}

/** The engine no longer knows the UploadId (completed or aborted already, or removed by the bucket's lifecycle rule). */
export class NoSuchUpload extends Error {}

/** What the engine answered, as an error whose `code` is the S3 error's (AccessDenied, NoSuchBucket …). */
class S3RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

const unavailable = (what: string, cause?: unknown) =>
  new BlobStoreUnavailable(`the pod's object store did not ${what}; nothing was changed, try again later`, cause === undefined ? undefined : { cause })

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const xmlValue = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1]

export interface S3Multipart {
  create(key: string): Promise<string>
  uploadPart(key: string, uploadId: string, n: number, bytes: Uint8Array): Promise<SentPart>
  complete(key: string, uploadId: string, parts: readonly SentPart[]): Promise<void>
  abort(key: string, uploadId: string): Promise<void>
  /** A small object in one request (an upload that never reached a whole part). */
  putObject(key: string, bytes: Uint8Array): Promise<void>
  /**
   * A part of an upload streamed through the pod (s3-blob-store.ts), written to its own connection straight from
   * `bytes` (socket-put.ts), its payload unsigned as Bun's own client sends it (the pod hashes the whole body on the
   * way; a second hash of each part cost as much again). `cut` ends the request (the upload failed elsewhere).
   */
  sendPart(key: string, uploadId: string, n: number, bytes: Uint8Array, cut: AbortSignal): Promise<SentPart>
  /** A whole object so (a body shorter than one part). */
  sendObject(key: string, bytes: Uint8Array, cut: AbortSignal): Promise<void>
  /** An object's bytes, streamed; the time limit is on each wait for bytes, not on the whole object. */
  readObject(key: string): AsyncIterable<Uint8Array>
  deleteObject(key: string): Promise<void>
  /**
   * CopyObject within the bucket: the engine copies the bytes, none pass through the pod (an object of up to 5 GiB).
   * False when the source object is not there.
   */
  copyObject(from: string, to: string): Promise<boolean>
  /** Multipart uploads in progress under `prefix` (`sweepPartials` and the tests). */
  listUploads(prefix: string): Promise<{ key: string; uploadId: string }[]>
}

/** The variables Bun's fetch reads for a proxy (and curl, and every S3 tool). */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']

export function openS3Multipart(cfg: S3BlobConfig, credentials: { readonly accessKeyId: string; readonly secretAccessKey: string }): S3Multipart {
  // aws4fetch retries nothing: a request answers within the bucket's time limit or the client is told 503 (a part
  // answered 500 or 503 is the one exception, sent once more: sendFrom).
  const aws = new AwsClient({ ...credentials, service: 's3', region: cfg.region, retries: 0 })
  // Our own PUT connects straight to the engine; Bun's fetch goes through the proxy the environment names (and
  // applies NO_PROXY), at the cost of a copy of each part (socket-put.ts), so a pod that must reach its bucket
  // through a proxy still stores its files.
  const proxied = PROXY_VARIABLES.some(name => (process.env[name] ?? '') !== '')
  const urlOf = (key: string, query = '') => `${cfg.endpoint}/${cfg.bucket}/${key.split('/').map(encodeURIComponent).join('/')}${query}`

  async function call(what: string, url: string, init: RequestInit & { headers?: Record<string, string> }): Promise<{ text: string; headers: Headers }> {
    let res: Response
    let text: string
    try {
      res = await aws.fetch(url, { ...init, signal: AbortSignal.timeout(cfg.timeoutMs) })
      text = await res.text()
    } catch (err) {
      const late = (err as Error | undefined)?.name === 'TimeoutError'
      throw late ? unavailable(`${what} within ${cfg.timeoutMs} ms`) : unavailable(what, err)
    }
    refused(what, res.status, text)
    return { text, headers: res.headers }
  }
  /** The engine's refusal as an error (CompleteMultipartUpload may answer 200 with an error in its body). */
  function refused(what: string, status: number, text: string) {
    const code = status >= 200 && status < 300 && !text.includes('<Error>') ? undefined : (xmlValue(text, 'Code') ?? `HTTP${status}`)
    if (code === 'NoSuchUpload') throw new NoSuchUpload(`the bucket has no multipart upload for ${what}`)
    if (code !== undefined) throw unavailable(what, new S3RequestError(code, `${what}: ${code}`))
  }
  /**
   * `bytes` PUT to `url` over a connection of its own (socket-put.ts), each try within the time limit; the answer's
   * headers. An engine answering 500 or 503 (InternalError, SlowDown) asks for the request again: it is sent once more
   * from the same buffer before the upload fails, as Bun's own client did, so that a long upload does not end on one
   * busy moment of the engine. A try that ran out of time or lost its connection is not repeated: the store is slow
   * or down, and the client hears 503 within the limit.
   */
  async function sendFrom(what: string, url: string, bytes: Uint8Array, cut: AbortSignal): Promise<Headers> {
    let answer = await sendOnce(what, url, bytes, cut)
    if (answer.status >= 500 && !cut.aborted) answer = await sendOnce(what, url, bytes, cut)
    refused(what, answer.status, answer.text)
    return answer.headers
  }
  async function sendOnce(what: string, url: string, bytes: Uint8Array, cut: AbortSignal) {
    const late = AbortSignal.timeout(cfg.timeoutMs)
    try {
      const signed = await aws.sign(url, { method: 'PUT', headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } })
      const signal = AbortSignal.any([cut, late])
      if (proxied) {
        const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: bytes as Uint8Array<ArrayBuffer>, signal })
        return { status: res.status, headers: res.headers, text: await res.text() }
      }
      return await socketPut(new URL(url), signed.headers, bytes, signal)
    } catch (err) {
      throw late.aborted ? unavailable(`${what} within ${cfg.timeoutMs} ms`) : unavailable(what, err)
    }
  }
  const payloadHash = (bytes: Uint8Array) => new Bun.CryptoHasher('sha256').update(bytes).digest('hex')

  return {
    async create(key) {
      const { text: xml } = await call('start a multipart upload', urlOf(key, '?uploads'), { method: 'POST' })
      const uploadId = xmlValue(xml, 'UploadId')
      if (!uploadId) throw unavailable('start a multipart upload', new S3RequestError('NoUploadId', 'no UploadId in the answer'))
      return uploadId
    },
    async uploadPart(key, uploadId, n, bytes) {
      // The part's own hash is signed: the engine refuses bytes that changed on the way.
      const url = urlOf(key, `?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`)
      const { headers } = await call('store a part', url, {
        method: 'PUT',
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { 'x-amz-content-sha256': payloadHash(bytes) },
      })
      const etag = headers.get('etag')
      if (!etag) throw unavailable('store a part', new S3RequestError('NoETag', 'no ETag in the answer'))
      return { n, size: bytes.byteLength, etag }
    },
    async complete(key, uploadId, parts) {
      const body = `<CompleteMultipartUpload>${parts
        .map(p => `<Part><PartNumber>${p.n}</PartNumber><ETag>${xmlEscape(p.etag)}</ETag></Part>`)
        .join('')}</CompleteMultipartUpload>`
      await call('complete the multipart upload', urlOf(key, `?uploadId=${encodeURIComponent(uploadId)}`), { method: 'POST', body })
    },
    async abort(key, uploadId) {
      await call('abort a multipart upload', urlOf(key, `?uploadId=${encodeURIComponent(uploadId)}`), { method: 'DELETE' })
    },
    async putObject(key, bytes) {
      await call('store the file', urlOf(key), {
        method: 'PUT',
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: { 'x-amz-content-sha256': payloadHash(bytes) },
      })
    },
    async sendPart(key, uploadId, n, bytes, cut) {
      const headers = await sendFrom('store a part', urlOf(key, `?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`), bytes, cut)
      const etag = headers.get('etag')
      if (!etag) throw unavailable('store a part', new S3RequestError('NoETag', 'no ETag in the answer'))
      return { n, size: bytes.byteLength, etag }
    },
    async sendObject(key, bytes, cut) {
      await sendFrom('store the file', urlOf(key), bytes, cut)
    },
    async *readObject(key) {
      const controller = new AbortController()
      let timer: Timer | undefined
      const waitAtMost = () => {
        clearTimeout(timer)
        timer = setTimeout(() => controller.abort(), cfg.timeoutMs)
      }
      waitAtMost()
      try {
        let res: Response
        try {
          res = await aws.fetch(urlOf(key), { method: 'GET', signal: controller.signal })
        } catch (err) {
          throw unavailable('read the object', err)
        }
        if (!res.ok) {
          const text = await res.text().catch(() => '')
          throw unavailable('read the object', new S3RequestError(xmlValue(text, 'Code') ?? `HTTP${res.status}`, `read the object: ${res.status}`))
        }
        const reader = res.body!.getReader()
        try {
          for (;;) {
            waitAtMost()
            let r: Awaited<ReturnType<typeof reader.read>>
            try {
              r = await reader.read()
            } catch (err) {
              throw unavailable('read the object', err)
            }
            if (r.done) return
            yield r.value
          }
        } finally {
          reader.releaseLock()
        }
      } finally {
        clearTimeout(timer)
        controller.abort()
      }
    },
    async deleteObject(key) {
      await call('delete the object', urlOf(key), { method: 'DELETE' })
    },
    async copyObject(from, to) {
      const source = `/${cfg.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`
      try {
        // An engine may answer 200 and fail later in the body: `call` reads the body for an <Error>
        await call('copy the object', urlOf(to), { method: 'PUT', headers: { 'x-amz-copy-source': source } })
      } catch (err) {
        if (err instanceof BlobStoreUnavailable && err.cause instanceof S3RequestError && err.cause.code === 'NoSuchKey') return false
        throw err
      }
      return true
    },
    async listUploads(prefix) {
      const found: { key: string; uploadId: string }[] = []
      let marker = ''
      for (;;) {
        const { text: xml } = await call('list multipart uploads', `${cfg.endpoint}/${cfg.bucket}?uploads&prefix=${encodeURIComponent(prefix)}${marker}`, {
          method: 'GET',
        })
        for (const [, upload] of xml.matchAll(/<Upload>([\s\S]*?)<\/Upload>/g)) {
          const key = xmlValue(upload!, 'Key')
          const uploadId = xmlValue(upload!, 'UploadId')
          if (key !== undefined && uploadId !== undefined) found.push({ key, uploadId })
        }
        if (xmlValue(xml, 'IsTruncated') !== 'true') return found
        marker = `&key-marker=${encodeURIComponent(xmlValue(xml, 'NextKeyMarker') ?? '')}&upload-id-marker=${encodeURIComponent(xmlValue(xml, 'NextUploadIdMarker') ?? '')}`
      }
    },
  }
}
