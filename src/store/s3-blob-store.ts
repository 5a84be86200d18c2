// The blob store in an S3-compatible bucket (Ceph RGW, MinIO, Garage, B2, R2 …) through Bun's own S3Client: one
// object per blob, `<prefix><id>`, written whole before any batch names it, never changed, deleted once nothing does.
// Partial uploads (resumable uploads) are assembled from multipart parts in the bucket (s3-partial-blobs.ts).

import { S3Client } from 'bun'
import { BlobStoreUnavailable, BlobWriteError, type BlobLimits, type BlobSource, type BlobStore, type StoredBlob } from './blob-store.ts'
import { BLOB_ID, newBlobId } from './local-blob-store.ts'
import { openS3Partials } from './s3-partial-blobs.ts'
import { openS3Multipart, type SentPart } from './s3-multipart.ts'
import { partWriter } from './s3-part-writer.ts'
import { makeDeferredRemoval } from './deferred-removal.ts'
import { release } from './write-body.ts'
import { freeBytesAt } from './disk-space.ts'
import { collectEvery } from '../lib/collect-every.ts'
import { log, describeCause } from '../log.ts'
import type { S3BlobConfig } from '../config.ts'

export interface S3Credentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
}

/**
 * Bytes sent per part of a multipart upload. What is held of one upload at a time is the parts being sent
 * (PARTS_IN_FLIGHT_OWNED) and the next one gathering (s3-part-writer.ts); the body is read on while a part is sent.
 * Each part is the pod's own UploadPart request over a connection of its own, written to the socket straight from the
 * part's buffer (socket-put.ts): Bun's S3 writer copied each `write()` into a buffer it allocated per part (~16 ms of CPU per MiB for
 * ~64 KiB writes, ~1–3 for whole-part writes: memmove and the new pages' faults), and Bun's fetch copies a body the
 * same way. Measured alone on Ceph (256 MiB in 8 MiB parts from one buffer, loaded machine): Bun's writer 2.3–3.8 ms of
 * CPU per MiB, aws4fetch's fetch 3.4–5.9, the socket 0.4–0.7. The body is read with `readMany` (one await per batch of
 * chunks) and a request body's chunks are emptied once copied (BlobLimits.ownsChunks), so no collections are needed.
 * Pod CPU per MiB uploaded (test/bench/s3-upload-cpu.ts, 256 MiB, before and after interleaved, load ~20): 9.9–11.0 ms
 * with Bun's writer, 4.3–6.0 now. History in docs/performance.md ("Files in an object store: the upload").
 */
export const PART_SIZE = 8 * 1024 * 1024
/**
 * Parts sent at once for a body whose chunks the pod owns (a request's body, BlobLimits.ownsChunks). With one part in
 * flight the upload waits on the engine's answer to each part before the next one leaves (latency-bound: 55 MB/s
 * through the pod against Bun's client's 76 straight, its parts sent several at once, with the pod's JS thread at
 * ~17 % of a core). Two hold one part buffer more (8 MiB). Other bodies (an import's entries) keep one: their chunks
 * are not emptied as they are copied and wait for a collection, and with two in flight a 200 MiB import peaked at
 * +108 MB, over the bound of issue 39.
 */
export const PARTS_IN_FLIGHT_OWNED = 2
/**
 * Uploads of one store that may have a second part in flight at once (PARTS_IN_FLIGHT_OWNED): a slot is taken when an
 * upload has a part ready while one is being sent, and given back when the upload ends. Past them an upload sends one
 * part at a time, so many large uploads at once hold at most this many part buffers (32 MiB) more than before.
 */
export const SECOND_PARTS_AT_ONCE = 4
/**
 * A read is one GET of a presigned URL through fetch(), its body the answer's body: the engine's status (the object
 * there, the store up) is known within the time limit before the pod's status is sent, in one round trip. Before,
 * a read of 8 MiB or more was a HEAD (`stat()`) and then Bun's `S3File.stream()`, and a smaller one a JS stream
 * pulling `S3File.stream()` whose first bytes were awaited. Pod CPU per MiB (test/bench/s3-download-cpu.ts, Ceph,
 * interleaved, load 15–22): 256 MiB 1.00–1.35 ms before, 1.09–1.19 after (no change: Bun sends either body without
 * JS per chunk); 4 MiB 10.1–17.5 ms before, 1.3–6.3 after (no JS pull per chunk). The pod's RSS stays flat while a
 * client reads slower than the engine sends (curl at 40 MB/s: +1–2 MB either way). The URL signs the request with
 * the keys and is never logged or sent on; it is used at once, so its validity only needs to outlast clock skew.
 */
const PRESIGNED_SECONDS = 15 * 60
/** The health endpoint asked in a loop shares one question to the bucket a second, answered within 5 s. */
const PROBLEM_EVERY_MS = 1000
const PROBLEM_WAIT_MS = 5000
/** Keys asked for per listing (the S3 maximum). */
const LIST_PAGE = 1000
/** The largest object one CopyObject copies (the S3 limit; larger ones need a multipart copy). */
const COPY_OBJECT_MAX_BYTES = 5 * 1024 ** 3

const tooLarge = (max: number) => new BlobWriteError('too_large', `the body is larger than this pod accepts (${max} bytes)`)
const unavailable = (what: string, cause?: unknown) =>
  new BlobStoreUnavailable(`the pod's object store did not ${what}; nothing was changed, try again later`, cause === undefined ? undefined : { cause })

/** NoSuchKey: the object is not there (damage for `blobs check` to find), not the store being down. */
const isMissing = (err: unknown) => (err as { code?: string } | undefined)?.code === 'NoSuchKey'

export function openS3BlobStore(dataDir: string, cfg: S3BlobConfig, credentials: S3Credentials): BlobStore {
  const client = new S3Client({
    endpoint: cfg.endpoint,
    bucket: cfg.bucket,
    region: cfg.region,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    virtualHostedStyle: false,
  })
  const keyOf = (id: string) => {
    if (!BLOB_ID.test(id)) throw new Error(`not a blob id: ${JSON.stringify(id)}`)
    return cfg.prefix + id
  }
  const noteStored = collectEvery()

  /** `work` within the bucket's time limit; any failure of it is the store being unavailable. */
  async function bounded<T>(what: string, work: Promise<T>, ms = cfg.timeoutMs): Promise<T> {
    let timer: Timer | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(unavailable(`${what} within ${ms} ms`)), ms)
    })
    try {
      return await Promise.race([work, late])
    } catch (err) {
      if (err instanceof BlobStoreUnavailable || isMissing(err)) throw err
      throw unavailable(what, err)
    } finally {
      clearTimeout(timer)
    }
  }

  const deleteNow = (id: string): Promise<void> =>
    bounded('delete an object', client.delete(keyOf(id))).catch((err: unknown) => log.warn('blob.remove_failed', { id, cause: describeCause(err) }))

  const multipart = openS3Multipart(cfg, credentials)
  let spareSecondParts = SECOND_PARTS_AT_ONCE

  /**
   * Streams `body` into the object `id`: one PUT when it is shorter than a part, otherwise a multipart upload of parts
   * of PART_SIZE, each sent from the pod's own buffer (s3-part-writer.ts) and completed once the last is stored; on any
   * failure the parts under way are cut, the multipart upload aborted, and no object is left under `id`.
   */
  async function upload(
    id: string,
    body: BlobSource,
    limits: Pick<BlobLimits, 'maxBytes' | 'observe' | 'ownsChunks'>,
  ): Promise<{ size: number; sha256: string }> {
    const key = keyOf(id)
    const hash = new Bun.CryptoHasher('sha256')
    const cut = new AbortController()
    let created: Promise<string> | undefined
    let maybeStored = false
    const stored: SentPart[] = []
    async function send(bytes: Uint8Array, n: number, last: boolean) {
      if (n === 1 && last) {
        maybeStored = true
        return bounded('store the file', multipart.sendObject(key, bytes, cut.signal))
      }
      created ??= bounded('start a multipart upload', multipart.create(key))
      stored.push(await bounded('store a part', multipart.sendPart(key, await created, n, bytes, cut.signal)))
    }
    // Chunks emptied once copied leave no garbage worth a collection (BlobLimits.ownsChunks).
    const owned = limits.ownsChunks === true
    let second = false
    const sending = () => {
      if (!second && spareSecondParts > 0) {
        spareSecondParts--
        second = true
      }
      return second ? PARTS_IN_FLIGHT_OWNED : 1
    }
    const parts = partWriter(PART_SIZE, send, { sent: bytes => hash.update(bytes), ...(owned ? { copied: release, sending } : {}) })
    let size = 0
    const take = (chunk: Uint8Array) => {
      size += chunk.byteLength
      if (limits.maxBytes !== undefined && size > limits.maxBytes) throw tooLarge(limits.maxBytes)
      limits.observe?.(chunk)
      if (!owned) noteStored(chunk.byteLength)
      return parts.add(chunk)
    }
    const reader = body instanceof ReadableStream ? (body.getReader() as ReadableStreamDefaultReader<Uint8Array>) : undefined
    let ended = false
    try {
      if (reader) {
        // Whatever chunks have arrived, in one read: one await per batch, not per ~64 KiB chunk.
        for (;;) {
          const batch = reader.readMany()
          const { done, value } = batch instanceof Promise ? await batch : batch
          for (const chunk of value) {
            const waiting = take(chunk)
            if (waiting !== undefined) await waiting
          }
          if (done) break
        }
        ended = true
      } else {
        for await (const chunk of body as AsyncIterable<Uint8Array>) {
          const waiting = take(chunk)
          if (waiting !== undefined) await waiting
        }
      }
      await parts.finish()
      if (created !== undefined) {
        maybeStored = true
        await bounded(
          'store the file',
          multipart.complete(
            key,
            await created,
            stored.sort((a, b) => a.n - b.n),
          ),
        )
      }
    } catch (err) {
      cut.abort()
      if (reader && !ended) void reader.cancel().catch(() => undefined)
      await parts.settle()
      if (created !== undefined) {
        // Parts the engine kept anyway (it never answered the abort) are what the bucket's lifecycle rule for
        // incomplete multipart uploads is for (docs/hosting.md). Waited for unless the store is down.
        const aborted = created
          .then(uploadId => bounded('abort a multipart upload', multipart.abort(key, uploadId)))
          .catch((cause: unknown) => log.warn('blob.abort_failed', { id, cause: describeCause(cause) }))
        if (!(err instanceof BlobStoreUnavailable)) await aborted
      }
      if (maybeStored) void deleteNow(id)
      throw err
    } finally {
      // Every send has ended by now (finish or settle waited for them): the buffer the slot allowed is free.
      if (second) spareSecondParts++
    }
    return { size, sha256: hash.digest('hex') }
  }

  async function put(body: BlobSource, limits: BlobLimits): Promise<StoredBlob> {
    if (limits.maxBytes !== undefined && (limits.expectedBytes ?? 0) > limits.maxBytes) throw tooLarge(limits.maxBytes)
    const id = newBlobId()
    const stored = await upload(id, body, limits)
    return { id, ...stored }
  }

  /** A multipart upload appears only once complete: a copy cut short leaves no object under `id`. */
  const putCopy = async (id: string, body: BlobSource): Promise<StoredBlob> => ({ id, ...(await upload(id, body, {})) })

  /**
   * The engine copies the object under a new id (CopyObject): no byte passes through the pod. Past CopyObject's 5 GiB
   * (which needs a multipart copy, not done) or for an object not there, undefined: the caller copies the bytes.
   */
  async function duplicate(id: string, known: Pick<StoredBlob, 'size' | 'sha256'>): Promise<StoredBlob | undefined> {
    if (known.size > COPY_OBJECT_MAX_BYTES) return undefined
    const copy = newBlobId()
    return (await multipart.copyObject(keyOf(id), keyOf(copy))) ? { id: copy, size: known.size, sha256: known.sha256 } : undefined
  }

  async function open(id: string, start?: number, end?: number): Promise<ReadableStream<Uint8Array>> {
    const url = client.presign(keyOf(id), { method: 'GET', expiresIn: PRESIGNED_SECONDS })
    const abort = new AbortController()
    const range = start === undefined ? undefined : `bytes=${start}-${end === undefined ? '' : end - 1}`
    let res: Response
    try {
      res = await bounded('send the file', fetch(url, { headers: range === undefined ? {} : { range }, signal: abort.signal, decompress: false }))
    } catch (err) {
      abort.abort()
      throw err
    }
    if (res.status === 200 || res.status === 206) return res.body ?? new Blob([]).stream()
    void res.body?.cancel().catch(() => undefined)
    // Damage `solopod blobs check` names, not the store being down.
    if (res.status === 404) throw new Error(`the object of blob ${id} is missing from the bucket (solopod blobs check)`)
    throw unavailable(`send the file (${res.status})`)
  }

  async function* list(): AsyncIterable<{ id: string; size: number; lastModified?: string }> {
    let continuationToken: string | undefined
    do {
      const page = await bounded(
        'list the bucket',
        client.list({ prefix: cfg.prefix, maxKeys: LIST_PAGE, ...(continuationToken ? { continuationToken } : {}) }),
      )
      for (const o of page.contents ?? []) {
        const id = o.key.slice(cfg.prefix.length)
        if (BLOB_ID.test(id)) yield { id, size: o.size ?? 0, ...(o.lastModified ? { lastModified: o.lastModified } : {}) }
      }
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined
    } while (continuationToken)
  }

  const freeBytes = () => freeBytesAt(dataDir)

  /** One listing of a key at most: it needs the keys to be right and the bucket to be there, and moves no bytes. */
  let asked: { at: number; problem: Promise<string | undefined> } | undefined
  const problem = () => {
    const at = Date.now()
    if (!asked || at - asked.at >= PROBLEM_EVERY_MS) {
      asked = {
        at,
        problem: bounded('answer', client.list({ prefix: cfg.prefix, maxKeys: 1 }), Math.min(cfg.timeoutMs, PROBLEM_WAIT_MS)).then(
          () => undefined,
          (err: unknown) => `the object store ${describeLocation(cfg)} is unavailable (${reasonOf(err)})`,
        ),
      }
    }
    return asked.problem
  }

  const removal = makeDeferredRemoval(id => void deleteNow(id))

  return {
    ...openS3Partials(dataDir, {
      multipart,
      partSize: PART_SIZE,
      location: describeLocation(cfg),
      keyOf,
      hashObject: async id => {
        const hash = new Bun.CryptoHasher('sha256')
        for await (const chunk of (await open(id)) as unknown as AsyncIterable<Uint8Array>) hash.update(chunk)
        return hash.digest('hex')
      },
      objectSize: id =>
        bounded('answer', client.file(keyOf(id)).stat()).then(
          s => s.size,
          (err: unknown) => {
            if (isMissing(err)) return undefined
            throw err
          },
        ),
      freeBytes,
      noteStored,
    }),
    put,
    putCopy,
    duplicate,
    read: id => client.file(keyOf(id)),
    open,
    list,
    remove: removal.remove,
    hold: removal.hold,
    discard: deleteNow,
    async sweep(areLive) {
      // The bucket may be down: the pod serves anyway (files answer 503), and orphans wait for the next sweep.
      // Run while the pod serves too (serve-pod.ts), so an object younger than the grace period (its write may be
      // about to commit) and one a reader may still hold (its removal is deferred anyway) are left alone.
      let removed = 0
      try {
        let group: string[] = []
        const settle = async () => {
          const answers = await areLive(group)
          for (const [i, id] of group.entries()) {
            if (answers[i] === true || removal.mayBeRead(id)) continue
            await bounded('delete an object', client.delete(keyOf(id)))
            removed++
          }
          group = []
        }
        const settledBefore = Date.now() - cfg.sweepGraceMs
        for await (const { id, lastModified } of list()) {
          if (lastModified === undefined || !(Date.parse(lastModified) < settledBefore)) continue
          group.push(id)
          if (group.length >= LIST_PAGE) await settle()
        }
        if (group.length > 0) await settle()
      } catch (err) {
        if (!(err instanceof BlobStoreUnavailable)) throw err
        log.warn('blob.sweep_failed', { location: describeLocation(cfg), cause: describeCause(err) })
      }
      return removed
    },
    localFile: () => undefined,
    freeBytes,
    location: describeLocation(cfg),
    remote: true,
    problem,
  }
}

/**
 * Why a request failed, short and without anything of the request (its signature names the access key): the S3
 * error's code (AccessDenied, NoSuchBucket), the socket's (ECONNREFUSED), or the time limit.
 */
function reasonOf(err: unknown): string {
  const cause = err instanceof BlobStoreUnavailable && err.cause !== undefined ? err.cause : err
  const code = (cause as { code?: unknown } | undefined)?.code
  if (typeof code === 'string' && /^[A-Za-z_]{2,40}$/.test(code)) return code
  return err instanceof BlobStoreUnavailable && err.cause === undefined ? 'no answer in time' : 'the request failed'
}

/** The bucket and where it is; never the keys. */
export const describeLocation = (cfg: S3BlobConfig) => `s3://${cfg.bucket}/${cfg.prefix} at ${cfg.endpoint}`
