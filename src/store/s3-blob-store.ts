// The blob store in an S3-compatible bucket (Ceph RGW, MinIO, Garage, B2, R2 …) through Bun's own S3Client: one
// object per blob, `<prefix><id>`, written whole before any batch names it, never changed, deleted once nothing does.
// Partial uploads (resumable uploads) are assembled from multipart parts in the bucket (s3-partial-blobs.ts).

import { S3Client } from 'bun'
import { BlobStoreUnavailable, BlobWriteError, type BlobLimits, type BlobSource, type BlobStore, type StoredBlob } from './blob-store.ts'
import { BLOB_ID, newBlobId } from './local-blob-store.ts'
import { openS3Partials } from './s3-partial-blobs.ts'
import { openS3Multipart } from './s3-multipart.ts'
import { partWriter } from './s3-part-writer.ts'
import { makeDeferredRemoval } from './deferred-removal.ts'
import { freeBytesAt } from './disk-space.ts'
import { collectEvery } from '../lib/collect-every.ts'
import { log, describeCause } from '../log.ts'
import type { S3BlobConfig } from '../config.ts'

export interface S3Credentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
}

/**
 * Bytes sent per part of a multipart upload. What is held of one upload at a time is two parts: the one Bun's writer
 * is storing and the next one gathering (s3-part-writer.ts); the body is read on while a part is stored. Bun's writer
 * does not wait by itself (`write()` returns a number): `flush()` is awaited before the next part is handed over.
 * Where the pod's CPU went (`--cpu-prof` of the pod during 128 MiB PUTs, test/bench/s3-upload-cpu.ts): Bun's
 * `write()` was 67 % of the JS thread's samples, pulling the request body 16 %, SHA-256 4 %, full collections 1 %.
 * Bun copies each `write()` onto the end of a buffer that grows as chunks arrive (memmove into each grown buffer and
 * its new pages' faults): ~16 ms of CPU per MiB for chunks of 64 KiB to 1 MiB, ~1–3 ms for one write of a whole
 * part. Chunks are now gathered into one reused buffer and written a part at a time: pod CPU per MiB uploaded
 * 22.3–24.0 ms before, 9.0–11.1 after (JS thread 18.2–19.8 → 7.3–9.3; 256 MiB, before and after interleaved in one
 * run, load 17–20; at load 9–14: 14.1 → 6.0–7.7), MB/s through the pod 0.7–1.5× Bun's own client's in the same
 * rounds (noise at that load) where it was about half. The object-store bench, 256 MiB, after: 0.72×, 8.8 ms/MiB.
 * RSS: +53 MB during the 2 GiB upload, +80–82 MB for the 200 MiB import (bounds 100).
 * Tried before and reverted, with the per-chunk writes that cost the CPU above: two parts queued in Bun's writer
 * (queueSize 2, no faster at 0.64×, RSS +75 MB instead of +39), and Bun's own upload of a stream
 * (`client.write(key, new Response(stream))`: 0.57–0.72× against 0.58–0.62×, and the 200 MiB import grew RSS by
 * +101 MB with 2 parts in flight, +119 MB with 3).
 */
export const PART_SIZE = 8 * 1024 * 1024
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

  /** Streams `body` into the object `id` in parts of PART_SIZE; on any failure the object is not there (or goes). */
  async function upload(id: string, body: BlobSource, limits: Pick<BlobLimits, 'maxBytes' | 'observe'>): Promise<{ size: number; sha256: string }> {
    const writer = client.file(keyOf(id)).writer({ partSize: PART_SIZE, queueSize: 1, retry: 1 })
    const hash = new Bun.CryptoHasher('sha256')
    // Each part's wait is bounded from its start (the next part gathers meanwhile).
    const parts = partWriter(
      writer,
      PART_SIZE,
      bytes => hash.update(bytes),
      flushed => bounded('store a part', flushed),
    )
    let size = 0
    try {
      for await (const chunk of body as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength
        if (limits.maxBytes !== undefined && size > limits.maxBytes) throw tooLarge(limits.maxBytes)
        limits.observe?.(chunk)
        noteStored(chunk.byteLength)
        await parts.add(chunk)
      }
      await parts.finish()
      await bounded('store the file', Promise.resolve(writer.end()))
    } catch (err) {
      // Ending with an error abandons the multipart upload; a part the engine kept anyway is what the bucket's
      // lifecycle rule for incomplete multipart uploads is for (docs/hosting.md).
      try {
        void Promise.resolve(writer.end(err instanceof Error ? err : new Error(String(err)))).catch(() => undefined)
      } catch {
        /* already ended */
      }
      void deleteNow(id)
      throw err
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
      multipart: openS3Multipart(cfg, credentials),
      partSize: PART_SIZE,
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
