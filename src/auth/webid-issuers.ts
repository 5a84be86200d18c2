// Solid-OIDC §4: the issuers a WebID profile trusts (`solid:oidcIssuer`), read through the fetcher.

import { REMOTE_DOCUMENT_CAPS, type FetchDoc, type RemoteDoc } from '../fetch/guarded-fetch.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { parseRdfDocumentOffThread, parseRemoteRdf } from '../rdf/parse-off-thread.ts'
import { SOLID } from '../rdf/namespaces.ts'
import type { WebId } from '../account/ids.ts'

const PROFILE_TYPES = ['text/turtle', 'application/ld+json', 'application/n-triples']
const OIDC_ISSUER = SOLID('oidcIssuer')
const ISSUER_LISTS_KEPT = 2_000
const ISSUER_LIST_BYTES = 1024 * 1024

/**
 * `getWebIdIssuers` for verifySolidAccessToken. Our own profile comes from the store on every call (the
 * fetcher answers our origin locally). Of a remote profile only its issuer list is kept, for as long as
 * HTTP caching allows; the document and its triples are dropped once read, and a remote document is
 * parsed on the remote worker (rdf/parse-off-thread.ts), never on the event loop.
 */
export function makeWebIdIssuerResolver(fetchDoc: FetchDoc, now: () => number = Date.now): (webid: WebId) => Promise<readonly string[]> {
  const known = new LruCache<string, readonly string[]>(ISSUER_LISTS_KEPT, { maxWeight: ISSUER_LIST_BYTES })
  return async webid => {
    const hit = known.get(webid, now())
    if (hit) return hit
    const doc = await fetchDoc(webid, {
      accept: 'text/turtle, application/ld+json;q=0.9, application/n-triples;q=0.8',
      allowedTypes: PROFILE_TYPES,
      maxBytes: REMOTE_DOCUMENT_CAPS.profile,
    })
    const issuers = issuersIn(await parse(doc), webid)
    if (doc.expiresAt !== undefined)
      known.set(
        webid,
        issuers,
        doc.expiresAt,
        issuers.reduce((n, i) => n + i.length, webid.length),
      )
    return issuers
  }
}

const parse = async (doc: RemoteDoc) =>
  doc.expiresAt === undefined
    ? (await parseRdfDocumentOffThread(doc.body, doc.contentType, doc.url)).triples
    : parseRemoteRdf(doc.body, doc.contentType, doc.url)

const issuersIn = (quads: Awaited<ReturnType<typeof parse>>, webid: string): readonly string[] =>
  quads
    .filter(q => q.subject.termType === 'NamedNode' && q.subject.value === webid && q.predicate.value === OIDC_ISSUER && q.object.termType === 'NamedNode')
    .map(q => q.object.value)
