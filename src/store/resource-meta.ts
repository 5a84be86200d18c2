// What the store knows about every resource besides its content.

export type ResourceKind = 'container' | 'rdf' | 'binary'

export interface ResourceMeta {
  readonly kind: ResourceKind
  /** Containers and RDF documents: text/turtle at rest. Binaries: the Content-Type as written, parameters kept. */
  readonly contentType: string
  /** Opaque, changes on every write of this resource (strong validator base). */
  readonly etag: string
  /** Bytes of the binary body; for RDF, bytes of the Turtle a GET serves (stat:size in listings, rs/new-content.ts). */
  readonly size: number
  /** Milliseconds since the epoch. */
  readonly modified: number
  /** Binaries: the id of the blob holding the bytes (store/blob-store.ts). */
  readonly blob?: string
  /** Binaries: hex SHA-256 of the bytes (Repr-Digest, RFC 9530). */
  readonly sha256?: string
  /** RDF: prefix → namespace as the document declared them; a GET declares those it uses. */
  readonly prefixes?: Record<string, string>
}

export const newEtag = () => crypto.randomUUID().replaceAll('-', '').slice(0, 20)
