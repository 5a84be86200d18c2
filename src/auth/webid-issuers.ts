// Solid-OIDC §4: the issuers a WebID profile trusts (`solid:oidcIssuer`), read through the fetcher.

import type { FetchDoc } from '../fetch/guarded-fetch.ts'
import { parseRdf } from '../rdf/parse-rdf.ts'
import { SOLID } from '../rdf/namespaces.ts'
import type { WebId } from './principal.ts'

const PROFILE_TYPES = ['text/turtle', 'application/ld+json', 'application/n-triples']
const OIDC_ISSUER = SOLID('oidcIssuer')

/**
 * `getWebIdIssuers` for verifySolidAccessToken. Our own profile comes from the store (the fetcher
 * answers our origin locally); remote profiles are cached by the fetcher per HTTP caching.
 */
export function makeWebIdIssuerResolver(fetchDoc: FetchDoc): (webid: WebId) => Promise<readonly string[]> {
  return async (webid) => {
    const doc = await fetchDoc(webid, { accept: 'text/turtle, application/ld+json;q=0.9, application/n-triples;q=0.8', allowedTypes: PROFILE_TYPES })
    const quads = await parseRdf(doc.body, doc.contentType, doc.url)
    return quads
      .filter((q) => q.subject.termType === 'NamedNode' && q.subject.value === webid && q.predicate.value === OIDC_ISSUER && q.object.termType === 'NamedNode')
      .map((q) => q.object.value)
  }
}
