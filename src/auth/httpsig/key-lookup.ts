// HttpSig step 4: from a keyid to a public key — did:key decoded here, pod URLs read from the store, others fetched.

import type { Quad } from '@rdfjs/types'
import { HttpError } from '../../http/errors.ts'
import type { FetchDoc, RemoteDoc } from '../../fetch/guarded-fetch.ts'
import type { Store } from '../../store/open-store.ts'
import { getMeta, readTriples } from '../../store/resources.ts'
import { isAcl } from '../../store/acl-names.ts'
import { LruCache } from '../../lib/lru-cache.ts'
import { parseRdf } from '../../rdf/parse-rdf.ts'
import { RDF_DOCUMENT_TYPES } from '../../rdf/media-types.ts'
import { normalizeKeyId } from '../key-id.ts'
import { didKeyToJwk } from './did-key.ts'
import { findPublicKey } from './key-document.ts'
import { signatureError } from './signature-base.ts'
import { toVerificationKey, type VerificationKey } from './algorithms.ts'

export type LoadDocument = (docUrl: string) => Promise<readonly Quad[]>
/** Whether the anonymous agent may read a document of this pod (WAC ∪ grants, the pod's one decision). */
export type ReadableByPublic = (docUrl: string) => Promise<boolean>

const LOCAL_DOCS_CACHED = 1000
const NO_QUADS: readonly Quad[] = Object.freeze([])

/**
 * HttpSig: "keyid is always a URL". Relative to the request URL, absolute, or a DID; the result is the key's
 * identifier as ACLs name it (`cert:key <…>`, `acl:agent <did:key:…>`). Throws 401 for what cannot be a key URL.
 */
export function keyUrlOf(keyid: string, requestUrl: string): string {
  if (keyid.startsWith('did:key:')) return normalizeKeyId(keyid)
  if (keyid.startsWith('did:jwt:')) throw signatureError('did:jwt keyids are not supported by this pod; use a key URL or did:key')
  if (/^did:/i.test(keyid)) throw signatureError(`the DID method of ${keyid.slice(0, 40)} is not supported; use a key URL or did:key`)
  if (!URL.canParse(keyid, requestUrl)) throw signatureError('keyid must be a URL (relative to the request, absolute, or did:key)')
  const url = new URL(keyid, requestUrl)
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw signatureError('keyid must be an http(s) URL or did:key')
  return url.href
}

export const documentUrlOf = (url: string) => url.split('#', 1)[0]!

export interface KeyResolver {
  readonly loadDocument: LoadDocument
  /** The public key `keyUrl` (from keyUrlOf) names; `doc` is its document when the caller has it already. */
  readonly resolveKey: (keyUrl: string, doc?: Promise<readonly Quad[]>) => Promise<VerificationKey>
}

/**
 * Documents of the pod itself come from the store on every request, so an edited or deleted key takes
 * effect at once; the parse is cached per ETag, which every write changes. Remote documents come through
 * the guarded fetcher (its cache follows HTTP caching with a floor); their parse is kept as long as the
 * fetcher returns the same cached document. A document's usable keys are checked and imported once per
 * parse; only keys the document holds are kept, so keyids a client makes up cannot grow it.
 */
export function makeKeyResolver(opts: { baseUrl: string; store: Store; fetchDoc: FetchDoc; readableByPublic: ReadableByPublic }): KeyResolver {
  const ownOrigin = new URL(opts.baseUrl).origin
  const local = new LruCache<string, { etag: string; quads: readonly Quad[] }>(LOCAL_DOCS_CACHED)
  const parsed = new WeakMap<RemoteDoc, Promise<readonly Quad[]>>()
  const keysOfDocument = new WeakMap<readonly Quad[], Map<string, VerificationKey>>()

  // The request names the document, so it is read as the public would see it (as a token's WebID
  // profile is): a private, missing or non-RDF document reads as one without keys, and no refusal can
  // tell anything of it, not even that it exists. Key documents and profiles are public by nature.
  async function loadLocal(url: URL): Promise<readonly Quad[]> {
    const path = url.pathname
    if (isAcl(path) || !await opts.readableByPublic(url.href)) return NO_QUADS
    const meta = await getMeta(opts.store, path)
    if (!meta || meta.kind === 'binary') return NO_QUADS
    const hit = local.get(path)
    if (hit?.etag === meta.etag) return hit.quads
    const quads = await readTriples(opts.store, opts.baseUrl, path)
    local.set(path, { etag: meta.etag, quads })
    return quads
  }

  async function loadRemote(url: string): Promise<readonly Quad[]> {
    let doc: RemoteDoc
    try {
      doc = await opts.fetchDoc(url, { accept: 'text/turtle, application/ld+json;q=0.9', allowedTypes: [...RDF_DOCUMENT_TYPES] })
    } catch (err) {
      const why = err instanceof HttpError ? err.description : 'it could not be fetched'
      throw signatureError(`the document ${url} could not be loaded: ${why}`, err)
    }
    let quads = parsed.get(doc)
    if (!quads) {
      quads = parseRdf(doc.body, doc.contentType, doc.url).catch((err: unknown) => {
        throw signatureError(`the document ${url} is not valid RDF`, err)
      })
      parsed.set(doc, quads)
    }
    return quads
  }

  const loadDocument: LoadDocument = (docUrl) => {
    const url = new URL(docUrl)
    return url.origin === ownOrigin ? loadLocal(url) : loadRemote(url.href)
  }

  async function resolveKey(keyUrl: string, doc?: Promise<readonly Quad[]>): Promise<VerificationKey> {
    if (keyUrl.startsWith('did:key:')) return toVerificationKey(didKeyToJwk(keyUrl))
    const quads = await (doc ?? loadDocument(documentUrlOf(keyUrl)))
    let keys = keysOfDocument.get(quads)
    if (!keys) keysOfDocument.set(quads, keys = new Map())
    const known = keys.get(keyUrl)
    if (known) return known
    const { jwk, problem } = findPublicKey(quads, keyUrl)
    if (!jwk) throw signatureError(`the key ${keyUrl} cannot be used: ${problem}`)
    const key = toVerificationKey(jwk)
    keys.set(keyUrl, key)
    return key
  }

  return { loadDocument, resolveKey }
}
