// HttpSig step 4: from a keyid to a public key — did:key decoded here, pod URLs read from the store, others fetched.

import { HttpError } from '../../http/errors.ts'
import { REMOTE_DOCUMENT_CAPS, type FetchDoc, type RemoteDoc } from '../../fetch/guarded-fetch.ts'
import { isBudgetRefusal } from '../../fetch/fetch-budget.ts'
import type { Store } from '../../store/open-store.ts'
import { getMeta, readTriples } from '../../store/resources.ts'
import { resolveTarget } from '../../store/target.ts'
import { LruCache } from '../../lib/lru-cache.ts'
import { forgetWhenIdle } from '../../lib/idle-caches.ts'
import { parseRemoteRdf } from '../../rdf/parse-off-thread.ts'
import { RDF_DOCUMENT_TYPES } from '../../rdf/media-types.ts'
import { normalizeKeyId } from '../key-id.ts'
import { didKeyToJwk } from './did-key.ts'
import { keyDocumentFacts, NO_FACTS, publicKeyIn, type KeyDocumentFacts } from './key-document.ts'
import { signatureError } from './signature-base.ts'
import { toVerificationKey, type VerificationKey } from './algorithms.ts'

/** A key document's or credential's facts, as the public would see it; a document without keys for what cannot be read. */
export type LoadDocument = (docUrl: string) => Promise<KeyDocumentFacts>
/** Whether the anonymous agent may read a document of this pod: policy/public-view.ts, injected (auth lies below policy). */
export type ReadableByPublic = (docUrl: string) => Promise<boolean>

const LOCAL_DOCS_CACHED = 1000
const REMOTE_DOCS_CACHED = 1000
/** Bound on what is kept of remote documents (their facts, measured by KeyDocumentFacts.weight). */
const REMOTE_FACTS_BYTES = 2 * 1024 * 1024

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
  readonly resolveKey: (keyUrl: string, doc?: Promise<KeyDocumentFacts>) => Promise<VerificationKey>
}

/**
 * Documents of the pod itself come from the store on every request, so an edited or deleted key takes
 * effect at once; their facts are cached per ETag, which every write changes. Remote documents come
 * through the guarded fetcher (capped at REMOTE_DOCUMENT_CAPS.keyDocument, rationed per client), are
 * parsed on the remote worker, and only their facts are kept, for as long as HTTP caching allows, in a
 * cache bounded in bytes. A document's usable keys are imported once per facts; only keys the
 * document holds are kept, so keyids a client makes up cannot grow it.
 */
export function makeKeyResolver(opts: {
  baseUrl: string
  store: Store
  fetchDoc: FetchDoc
  readableByPublic: ReadableByPublic
  now?: () => number
}): KeyResolver {
  const ownOrigin = new URL(opts.baseUrl).origin
  const now = opts.now ?? Date.now
  const local = forgetWhenIdle(new LruCache<string, { etag: string; facts: KeyDocumentFacts }>(LOCAL_DOCS_CACHED))
  const remote = new LruCache<string, Promise<KeyDocumentFacts>>(REMOTE_DOCS_CACHED, { maxWeight: REMOTE_FACTS_BYTES })
  const keysOfDocument = new WeakMap<KeyDocumentFacts, Map<string, VerificationKey>>()

  // The request names the document, so it is read as the public would see it (`readableByPublic`, the
  // pod's one answer, policy/public-view.ts): a private, missing or non-RDF document reads as one without
  // keys, and no refusal can tell anything of it, not even that it exists.
  async function loadLocal(url: URL): Promise<KeyDocumentFacts> {
    if (!(await opts.readableByPublic(url.href))) return NO_FACTS
    const { path } = resolveTarget(opts.baseUrl, url.href)
    const meta = await getMeta(opts.store, path)
    if (!meta || meta.kind === 'binary') return NO_FACTS
    const hit = local.get(path)
    if (hit?.etag === meta.etag) return hit.facts
    const facts = keyDocumentFacts(await readTriples(opts.store, opts.baseUrl, path))
    local.set(path, { etag: meta.etag, facts })
    return facts
  }

  async function fetchFacts(url: string): Promise<{ facts: KeyDocumentFacts; expiresAt: number }> {
    let doc: RemoteDoc
    try {
      doc = await opts.fetchDoc(url, {
        accept: 'text/turtle, application/ld+json;q=0.9',
        allowedTypes: [...RDF_DOCUMENT_TYPES],
        maxBytes: REMOTE_DOCUMENT_CAPS.keyDocument,
      })
    } catch (err) {
      if (isBudgetRefusal(err)) throw err
      const why = err instanceof HttpError ? err.description : 'it could not be fetched'
      throw signatureError(`the key document could not be loaded: ${why}`, err)
    }
    const quads = await parseRemoteRdf(doc.body, doc.contentType, doc.url).catch((err: unknown) => {
      throw signatureError(`the document ${url} is not valid RDF`, err)
    })
    return { facts: keyDocumentFacts(quads), expiresAt: doc.expiresAt ?? 0 }
  }

  // Concurrent requests for one document share its load; a failed load is not kept.
  function loadRemote(url: string): Promise<KeyDocumentFacts> {
    const hit = remote.get(url, now())
    if (hit) return hit
    const loading = fetchFacts(url)
    const facts = loading.then(r => r.facts)
    remote.set(url, facts, now() + 60_000, 0)
    loading.then(
      r => {
        if (remote.get(url, now()) === facts) remote.set(url, facts, r.expiresAt, r.facts.weight)
      },
      () => {
        if (remote.get(url, now()) === facts) remote.delete(url)
      },
    )
    return facts
  }

  const loadDocument: LoadDocument = docUrl => {
    const url = new URL(docUrl)
    return url.origin === ownOrigin ? loadLocal(url) : loadRemote(url.href)
  }

  async function resolveKey(keyUrl: string, doc?: Promise<KeyDocumentFacts>): Promise<VerificationKey> {
    if (keyUrl.startsWith('did:key:')) return toVerificationKey(didKeyToJwk(keyUrl))
    const facts = await (doc ?? loadDocument(documentUrlOf(keyUrl)))
    let keys = keysOfDocument.get(facts)
    if (!keys) keysOfDocument.set(facts, (keys = new Map()))
    const known = keys.get(keyUrl)
    if (known) return known
    const { jwk, problem } = publicKeyIn(facts, keyUrl)
    if (!jwk) throw signatureError(`the key ${keyUrl} cannot be used: ${problem}`)
    const key = toVerificationKey(jwk)
    keys.set(keyUrl, key)
    return key
  }

  return { loadDocument, resolveKey }
}
