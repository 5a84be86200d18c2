// What the store knows about every resource besides its content.

export type ResourceKind = 'container' | 'rdf' | 'binary'

export interface ResourceMeta {
  readonly kind: ResourceKind
  /** Media type without parameters; containers and RDF documents are text/turtle at rest. */
  readonly contentType: string
  /** Opaque, changes on every write of this resource (strong validator base). */
  readonly etag: string
  /** Bytes of the binary body; for RDF, the triple count (exact, unlike quadstore's countQuads). */
  readonly size: number
  /** Milliseconds since the epoch. */
  readonly modified: number
}

export const newEtag = () => crypto.randomUUID().replaceAll('-', '').slice(0, 20)
