// The slice of jsonld.js (v9) this pod calls; the package ships no types and @types/jsonld is not a dependency.

declare module 'jsonld' {
  /** A term as jsonld.js emits and accepts it: RDF/JS shape without methods. */
  export interface JsonLdTerm {
    termType: 'NamedNode' | 'BlankNode' | 'Literal' | 'DefaultGraph'
    value: string
    datatype?: { termType: 'NamedNode'; value: string }
    language?: string
  }
  export interface JsonLdQuad {
    subject: JsonLdTerm
    predicate: JsonLdTerm
    object: JsonLdTerm
    graph: JsonLdTerm
  }
  export interface RemoteDocument {
    contextUrl: string | null
    documentUrl: string
    document: unknown
  }
  export type DocumentLoader = (url: string) => Promise<RemoteDocument>
  export interface JsonLdEvent {
    code: string
    level: string
    message: string
    details?: Record<string, unknown>
  }
  export type EventHandler = (arg: { event: JsonLdEvent; next: () => void }) => void
  export interface Options {
    base?: string | null
    documentLoader?: DocumentLoader
    eventHandler?: EventHandler | EventHandler[]
    safe?: boolean
    format?: string
    inputFormat?: string
    useNativeTypes?: boolean
    useRdfType?: boolean
    produceGeneralizedRdf?: boolean
    rdfDirection?: 'i18n-datatype' | null
    algorithm?: string
  }
  /** Thrown by every jsonld.js operation; `details.cause` may carry the loader's own error. */
  export interface JsonLdError extends Error {
    details?: { code?: string; cause?: unknown; [key: string]: unknown }
  }
  const jsonld: {
    toRDF(input: unknown, options: Options & { format: 'application/n-quads' }): Promise<string>
    toRDF(input: unknown, options?: Options): Promise<JsonLdQuad[]>
    fromRDF(dataset: readonly JsonLdQuad[] | string, options?: Options): Promise<object[]>
    expand(input: unknown, options?: Options): Promise<object[]>
    compact(input: unknown, context: unknown, options?: Options & { compactToRelative?: boolean }): Promise<Record<string, unknown>>
    canonize(input: unknown, options?: Options): Promise<string>
  }
  export default jsonld
}
