// The blob store in an S3-compatible bucket (Ceph RGW, MinIO, Garage, B2, R2 …) through Bun's own S3Client: one
// object per blob, `<prefix><id>`, written whole before any batch names it, never changed, deleted once nothing does.
// Partial uploads (resumable uploads) are assembled from multipart parts in the bucket (s3-partial-blobs.ts).

import { S3Client, type S3File } from 'bun'
import { BlobStoreUnavailable, BlobWriteError, type BlobLimits, type BlobSource, type BlobStore, type StoredBlob } from './blob-store.ts'
import { BLOB_ID, newBlobId } from './local-blob-store.ts'
import { openS3Partials } from './s3-partial-blobs.ts'
import { openS3Multipart } from './s3-multipart.ts'
import { makeDeferredRemoval } from './deferred-removal.ts'
import { freeBytesAt } from './disk-space.ts'
import { collectEvery } from '../lib/collect-every.ts'
import { log, describeCause } from '../log.ts'
import type { S3BlobConfig } from '../config.ts'

export interface S3Credentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
}

/** Bytes sent per part of a multipart upload (a resumable upload's parts too: s3-partial-blobs.ts). */
export const PART_SIZE = 8 * 1024 * 1024
/**
 * Parts of one upload in flight: Bun's own upload of a stream (`client.write(key, new Response(stream))`) reads
 * no further ahead than this many parts, so what is held of an upload stays about (UPLOAD_QUEUE + 1) × PART_SIZE.
 * It replaced a `writer()` awaited on `flush()` per part (Bun's writer gives no backpressure otherwise), one part in
 * flight: in the object-store bench (256 MiB, Ceph, load ~13 on 2 cores) 0.62× Bun's own upload became 0.72×, and
 * the pod's CPU per MiB received and stored went from 13.0–13.3 ms to 8.9–10.7 (of which ~2.6 is the SHA-256; Bun's
 * own upload of a stream costs 5.4–5.8 ms here, its upload straight from the bench process ~10). Two parts in
 * flight with the writer had measured no faster (0.64× either way) and grew RSS by +75 MB instead of +39; with 4
 * parts here a 200 MB upload grew RSS by +72 MB. Still short of issue 39's 0.8×: in the pod, per MiB uploaded, the JS
 * thread spent 15–16 ms and Bun's HTTP client thread ~2 (per-thread CPU from /proc, 128 MiB PUTs), where a bare
 * Bun.serve doing the same hashed stream upload spent 9–11 in all: the next place to look is a `--cpu-prof` of the
 * pod's JS thread during a PUT (test/bench/profile.ts), not the S3 client.
 */
const UPLOAD_QUEUE = 3
/**
 * A read of this many bytes or more is Bun's own stream of the object, which Bun.serve sends without a JS step per
 * chunk: measured on Ceph (256 MiB, loaded machine) 1.1–1.3 ms of the server's CPU per MiB against 3.6–5.5 through
 * a stream of JS pulls (coalescing the pulls into 512 KiB chunks, or Bun's readMany, saved little: 3.6–5.7).
 * Whether the engine answers is asked first (HEAD) within the time limit, so that a store slow or down is a 503
 * before the status, as for a smaller read, whose first bytes are awaited instead (no second round trip).
 */
const SENT_BY_BUN_FROM = 8 * 1024 * 1024
/** The health endpoint asked in a loop shares one question to the bucket a second, answered within 5 s. */
const PROBLEM_EVERY_MS = 1000
const PROBLEM_WAIT_MS = 5000
/** Keys asked for per listing (the S3 maximum). */
const LIST_PAGE = 1000

const tooLarge = (max: number) => new BlobWriteError('too_large', `the body is larger than this pod accepts (${max} bytes)`)
const unavailable = (what: string, cause?: unknown) =>
  new BlobStoreUnavailable(`the pod's object store did not ${what}; nothing was changed, try again later`, cause === undefined ? undefined : { cause })

/** The chunks of any body a blob is made of, pulled one at a time. */
async function* chunksOf(body: BlobSource): AsyncGenerator<Uint8Array, void, unknown> {
  for await (const chunk of body as AsyncIterable<Uint8Array>) yield chunk
}

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

  /**
   * Streams `body` into the object `id` in parts of PART_SIZE, UPLOAD_QUEUE of them in flight, by Bun's own upload
   * of a stream; on any failure the object is not there (or goes). Each chunk is counted and hashed as Bun pulls it.
   * Bun pulls no further while its parts are in flight, so the engine not taking a part within the time limit
   * (Bun asking for nothing more, or not ending after the last byte) is the store being unavailable.
   */
  async function upload(id: string, body: BlobSource, limits: Pick<BlobLimits, 'maxBytes' | 'observe'>): Promise<{ size: number; sha256: string }> {
    const chunks = chunksOf(body)
    const hash = new Bun.CryptoHasher('sha256')
    let size = 0
    /** What went wrong on the pod's side (the body, its size): thrown as it is, not as the store being down. */
    let failure: { err: unknown } | undefined
    /** Since when the engine is waited on (Bun has not asked for more, or not ended), or undefined while the body is. */
    let waitingSince: number | undefined
    let waitedFor = 'store a part'
    let control: ReadableStreamDefaultController<Uint8Array> | undefined
    const source = new ReadableStream<Uint8Array>(
      {
        start(controller) {
          control = controller
        },
        async pull(controller) {
          waitingSince = undefined
          try {
            const next = await chunks.next()
            if (next.done) {
              waitedFor = 'store the file'
              controller.close()
            } else {
              const chunk = next.value
              size += chunk.byteLength
              if (limits.maxBytes !== undefined && size > limits.maxBytes) throw tooLarge(limits.maxBytes)
              limits.observe?.(chunk)
              hash.update(chunk)
              noteStored(chunk.byteLength)
              controller.enqueue(chunk)
            }
          } catch (err) {
            failure = { err }
            controller.error(err)
          }
          // Whatever was handed on last (a chunk, the end, an error), Bun is waited on now.
          waitingSince = performance.now()
        },
        cancel: reason => void chunks.return(reason).catch(() => undefined),
      },
      { highWaterMark: 0 },
    )
    let watchdog: Timer | undefined
    const late = new Promise<never>((_, reject) => {
      watchdog = setInterval(
        () => {
          if (waitingSince !== undefined && performance.now() - waitingSince >= cfg.timeoutMs) {
            reject(unavailable(`${waitedFor} within ${cfg.timeoutMs} ms`))
          }
        },
        Math.min(1000, cfg.timeoutMs / 4),
      )
    })
    const written = client.write(keyOf(id), new Response(source), { partSize: PART_SIZE, queueSize: UPLOAD_QUEUE, retry: 1 })
    try {
      await Promise.race([written, late])
    } catch (err) {
      // Bun abandons its multipart upload when the stream errors; one it could not abandon (the engine down) is what
      // the bucket's lifecycle rule for incomplete multipart uploads is for (docs/hosting.md). An upload the engine
      // completes after all is an object no record names: the sweep's.
      void written.catch(() => undefined)
      const cause = failure?.err ?? err
      if (failure === undefined) {
        try {
          control?.error(cause)
        } catch {
          /* already ended */
        }
        void chunks.return(undefined).catch(() => undefined)
      }
      void deleteNow(id)
      if (failure !== undefined) throw failure.err
      throw err instanceof BlobStoreUnavailable ? err : unavailable('store the file', err)
    } finally {
      clearInterval(watchdog)
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

  async function open(id: string, start?: number, end?: number, size?: number): Promise<ReadableStream<Uint8Array>> {
    const whole = client.file(keyOf(id))
    const file: S3File = start === undefined ? whole : whole.slice(start, end)
    const bytes = start === undefined ? size : (end ?? size ?? Number.NaN) - start
    if (bytes !== undefined && bytes >= SENT_BY_BUN_FROM) {
      try {
        await bounded('send the file', whole.stat())
      } catch (err) {
        if (isMissing(err)) throw new Error(`the object of blob ${id} is missing from the bucket (solopod blobs check)`, { cause: err })
        throw err
      }
      return file.stream()
    }
    const reader = file.stream().getReader()
    let first: { done: boolean; value?: Uint8Array }
    try {
      first = await bounded('send the file', reader.read())
    } catch (err) {
      void reader.cancel().catch(() => undefined)
      if (isMissing(err)) throw new Error(`the object of blob ${id} is missing from the bucket (solopod blobs check)`, { cause: err })
      throw err
    }
    let pending: { done: boolean; value?: Uint8Array } | undefined = first
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const next = pending ?? (await reader.read())
          pending = undefined
          if (next.done) controller.close()
          else controller.enqueue(next.value!)
        },
        cancel: reason => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    )
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
