// What the store knows about every resource besides its content.

export type ResourceKind = 'container' | 'rdf' | 'binary'

export interface ResourceMeta {
  readonly kind: ResourceKind
  /** Containers and RDF documents: text/turtle at rest. Binaries: the Content-Type as written, parameters kept. */
  readonly contentType: string
  /** Opaque, changes on every write of this resource (strong validator base). */
  readonly etag: string
  /** Bytes of the binary body; for RDF, bytes of the Turtle a GET serves (stat:size in listings, resources/new-content.ts). */
  readonly size: number
  /** Milliseconds since the epoch. */
  readonly modified: number
  /** Binaries: the id of the blob holding the bytes (store/blob-store.ts). */
  readonly blob?: string
  /** Binaries: hex SHA-256 of the bytes (Repr-Digest, RFC 9530). */
  readonly sha256?: string
  /** RDF: prefix → namespace as the document declared them; a GET declares those it uses. */
  readonly prefixes?: Record<string, string>
  /** RDF: the document holds named graphs of its own (rdf/graph-statements.ts), so Turtle cannot carry it. */
  readonly namedGraphs?: true
  /**
   * Containers: when their own statements were written, once a member's coming or going has moved `modified` (the
   * listing's Last-Modified) past it. That state, not the listing, is what a folder's memento shows (docs/versions.md).
   */
  readonly stateFrom?: number
}

/** When the state a memento of this resource shows was written: its id and Memento-Datetime. */
export const stateTime = (meta: Pick<ResourceMeta, 'modified' | 'stateFrom'>) => meta.stateFrom ?? meta.modified

/** True when `from` names the state `meta` is: by its own statements' time, or (a URL an earlier build gave) its `modified`. */
export const isStateAt = (meta: ResourceMeta | undefined, from: number): meta is ResourceMeta =>
  meta !== undefined && (stateTime(meta) === from || meta.modified === from)

/** A container whose members came or went at `now`: its listing is newer, its own statements are not. */
export const withListingChanged = (meta: ResourceMeta, now: number): ResourceMeta => ({
  ...meta,
  etag: newEtag(),
  modified: now,
  ...(stateTime(meta) !== now ? { stateFrom: stateTime(meta) } : {}),
})

export const newEtag = () => crypto.randomUUID().replaceAll('-', '').slice(0, 20)

const RDF_SUFFIX: Record<string, string> = {
  'text/turtle': 't',
  'application/ld+json': 'j',
  'application/n-triples': 'n',
  'application/trig': 'g',
  'application/n-quads': 'q',
}

/**
 * Strong validator per representation (RFC 9110 §8.8.3): each RDF syntax of one state gets its own tag,
 * so a cache never answers JSON-LD with Turtle bytes. The resource server's ETag header and the `state`
 * of notifications (Turtle for RDF, the bytes for files) are both this.
 */
export function representationEtag(meta: Pick<ResourceMeta, 'kind' | 'etag'>, mediaType: string): string {
  const suffix = meta.kind === 'binary' ? undefined : RDF_SUFFIX[mediaType]
  return suffix ? `"${meta.etag}-${suffix}"` : `"${meta.etag}"`
}

/** The ETag of a resource's default representation (Turtle for RDF and containers, the bytes for files). */
export const defaultEtag = (meta: Pick<ResourceMeta, 'kind' | 'etag'>) => representationEtag(meta, 'text/turtle')

/** True when `tag` names this state in any of its representations (a write's If-Match, a notification's `state`). */
export const namesState = (tag: string, meta: Pick<ResourceMeta, 'etag'>) =>
  tag === `"${meta.etag}"` || Object.values(RDF_SUFFIX).some(suffix => tag === `"${meta.etag}-${suffix}"`)
