// Where the bytes of binary resources live: one interface, so that an object store (S3 and the like) can
// take the place of local files without the resource server noticing.

/** A blob written whole and durable, not yet named by any resource (a metadata batch does that). */
export interface StoredBlob {
  readonly id: string
  readonly size: number
  /** Hex SHA-256 of the bytes: Repr-Digest (RFC 9530) and the export manifest come from it. */
  readonly sha256: string
}

/** Bytes to store: a request body, a file being imported, or chunks in memory. */
export type BlobSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Iterable<Uint8Array>

export interface BlobLimits {
  /** Bytes the blob may hold; more fails with `too_large` as soon as they arrive. */
  readonly maxBytes?: number
  /** Free space the disk must keep; a write that would leave less fails with `disk_full`. */
  readonly reserveBytes: number
  /** The length the sender announced (Content-Length): checked against the free space before a byte is written. */
  readonly expectedBytes?: number
  /** Sees every chunk as it is stored (a signed request's Content-Digest is computed this way). */
  readonly observe?: (chunk: Uint8Array) => void
  /**
   * The body's chunks are the pod's alone (a request's body stream, read by nothing else): each is emptied (its
   * ArrayBuffer detached) once copied or written, so its memory goes back at once instead of at the next garbage
   * collection, and the store needs no collections of its own to keep RSS flat. Never for bytes a caller holds
   * (an import's, a backup's, a document in memory, a part of a multipart form): they would be emptied under it.
   */
  readonly ownsChunks?: boolean
}

export type BlobWriteFailure = 'too_large' | 'disk_full'

/**
 * The blob store did not answer in time or failed (an object store slow or down): nothing was stored or read, and
 * the caller answers 503 with Retry-After. Metadata is never committed for a write that failed so.
 */
export class BlobStoreUnavailable extends Error {
  /** Seconds a client should wait before trying again. */
  readonly retryAfter = 30
}

/**
 * The bytes of a partial upload are gone from the store (the bucket's lifecycle rule, or anyone, aborted its multipart
 * upload): nothing can be appended to it or made of it, and its local files went with it. The client starts again.
 */
export class PartialUploadLost extends Error {}

/** A write refused for its size or for the disk; nothing of it is left behind. */
export class BlobWriteError extends Error {
  constructor(
    readonly reason: BlobWriteFailure,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

export interface BlobStore extends PartialBlobs {
  /**
   * Streams `body` into a new blob (never whole in memory) and makes it durable (fsynced). The blob is
   * referenced by nothing until a metadata batch names its id; one that never is goes at the next `sweep`.
   */
  put(body: BlobSource, limits: BlobLimits): Promise<StoredBlob>
  /**
   * Stores `body` under the given id, whole or not at all (`solopod blobs move` copies a blob from another store
   * under its own id: the records that name it stay as they are). Durable when it resolves.
   */
  putCopy(id: string, body: BlobSource): Promise<StoredBlob>
  /**
   * A new blob with the bytes of blob `id` (whose size and SHA-256 the caller's records hold), made without copying
   * them: a local file's second name (a hard link: blobs are written once and never changed), an object copied by the
   * engine. Durable when it resolves. Undefined when the store cannot do so (a filesystem without hard links, an
   * object over CopyObject's limit, the blob gone): the caller then copies the bytes.
   */
  duplicate(id: string, known: Pick<StoredBlob, 'size' | 'sha256'>): Promise<StoredBlob | undefined>
  /** The blob's bytes as a Blob: `slice` reads a range; a Response body of it is copied by the OS. */
  read(id: string): Blob
  /**
   * The bytes from `start` to before `end` (the whole blob without them) to send in a response, once the store has
   * answered: a local file as its Blob (the OS copies it), an object as the body of the engine's answer, already
   * received, so that a store slow or down is a `BlobStoreUnavailable` before the answer's status is sent, not a cut
   * body. `size`, the blob's size when the caller knows it, is for a store that sends reads differently by size.
   */
  open(id: string, start?: number, end?: number, size?: number): Promise<Blob | ReadableStream<Uint8Array>>
  /** Every blob with its size, in id order (`solopod blobs check`). */
  list(): AsyncIterable<{ readonly id: string; readonly size: number }>
  /**
   * Drops a blob no resource names any more, a little later (a GET that read the old metadata may be
   * about to open it) and not while a reader holds the store (`hold`).
   */
  remove(id: string): void
  /** Drops at once a blob that no resource ever named (its write was refused or failed); resolves once it is gone (or its removal failed and was logged). */
  discard(id: string): Promise<void>
  /**
   * Keeps every blob in place until the returned release is called (and while any other hold lasts):
   * an export reads blobs named by a snapshot while writes replace them.
   */
  hold(): () => void
  /**
   * Removes every blob `areLive` does not claim (asked for ids in groups, answered in their order); run
   * before the pod serves, when no write is under way.
   */
  sweep(areLive: (ids: readonly string[]) => Promise<readonly boolean[]>): Promise<number>
  /** The blob as a local file, when it is one: exports hard-link it instead of copying. */
  localFile(id: string): string | undefined
  /** Bytes free for new blobs, as the filesystem reports them to this user (partial uploads' disk for an object store). */
  freeBytes(): number
  /** Where the bytes are, for the log and `blobs check` (a directory, or s3://bucket/prefix at an endpoint). */
  readonly location: string
  /** True when the bytes are not on this machine's disk (an object store): the Pod status page says where. */
  readonly remote: boolean
  /**
   * Undefined while the store answers, else what is wrong in a sentence without a key (the health endpoint and the
   * Pod status page). Asked once a second at most whoever asks; an answer comes within the store's time limit.
   */
  problem(): Promise<string | undefined>
}

/** Limits of one append to a partial upload; `maxBytes` caps the whole upload, not the append. */
export interface AppendLimits extends BlobLimits {
  /** Stops reading the body (a newer request for the same upload takes over); what arrived is kept. */
  readonly signal?: AbortSignal
  /**
   * The body is checked after the append (a signed body's Content-Digest): a store that sends bytes elsewhere as they
   * arrive (an object store's parts) keeps these on the local disk until the next append or the finish.
   */
  readonly heldUntilChecked?: boolean
}

/** What an append left in the partial upload, made durable (fsynced) before this is returned. */
export interface AppendResult {
  /** The partial upload's size now: its offset. */
  readonly size: number
  /** False when the body stopped early (the client went away, or `signal` took over): what arrived is kept. */
  readonly ended: boolean
  /** The store failed midway (an object store down): what arrived is kept (`size`), and the request answers 503. */
  readonly failed?: BlobStoreUnavailable
}

/**
 * Uploads arriving in pieces (resumable uploads): kept apart from the blobs, so the start-up sweep of
 * blobs never sees them, until `finishPartial` turns one into a blob.
 */
export interface PartialBlobs {
  /** An empty partial upload under `id` (32 hex digits, chosen by the caller). */
  startPartial(id: string): Promise<void>
  /**
   * Appends `body` at the end. A refusal for size or disk (`BlobWriteError`) leaves the upload as it was;
   * a body that fails midway (the client went away) keeps what arrived.
   */
  appendPartial(id: string, body: BlobSource, limits: AppendLimits): Promise<AppendResult>
  /** The partial upload's size on disk, or undefined when there is none. */
  partialSize(id: string): number | undefined
  /**
   * Cuts the partial upload back to `size` bytes (a signed append whose digest failed, bytes a crash left past the
   * recorded offset) and resolves to the size it kept: more than `size` when bytes were sent on already (an object
   * store's parts cannot be cut).
   */
  truncatePartial(id: string, size: number): Promise<number>
  /** Makes the partial upload a blob (moved, not copied), with its SHA-256; the partial is gone after. */
  finishPartial(id: string): Promise<StoredBlob>
  /** Drops a partial upload (cancelled or expired). */
  removePartial(id: string): void
  /** Removes every partial upload `areLive` does not claim. */
  sweepPartials(areLive: (ids: readonly string[]) => Promise<readonly boolean[]>): Promise<number>
  /**
   * True when some of the upload's bytes are where only this store reads them (parts in a bucket). Every store reads
   * an upload kept whole on the local disk (`uploads/<id>`), so only a store that can hold one otherwise has this.
   */
  holdsPartial?(id: string): boolean
  /** The uploads `holdsPartial` is true of. */
  heldPartials?(): string[]
  /**
   * Makes the upload one whole file on the local disk, the form every store reads (before a move of the blobs
   * switches away from this store); `PartialUploadLost` when its parts were gone already.
   */
  carryPartialHome?(id: string): Promise<void>
}
