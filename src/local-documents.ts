// Answers the guarded fetcher for URLs on our own origin straight from the store (docs/architecture.md, the guarded fetcher).

import type { Store } from './store/open-store.ts'
import type { RemoteDoc } from './fetch/guarded-fetch.ts'
import { getBody, getMeta, readTriples } from './store/resources.ts'
import { serializeRdf } from './rdf/serialize-rdf.ts'
import { resolveTarget } from './store/target.ts'
import { mediaTypeOf, preferredRdfType } from './rdf/media-types.ts'

/**
 * The pod reading its own documents (the owner's profile, local groups) needs no access check:
 * it is the server itself asking, and nothing is returned to a client from here.
 */
export async function loadLocalDocument(store: Store, baseUrl: string, url: string, accept: string, now: number): Promise<RemoteDoc | undefined> {
  const { path } = resolveTarget(baseUrl, url)
  const meta = await getMeta(store, path)
  if (!meta) return undefined
  if (meta.kind === 'binary') {
    const body = await getBody(store, path)
    return { url, contentType: mediaTypeOf(meta.contentType) ?? '', body: new TextDecoder().decode(body ?? new Uint8Array()), fetchedAt: now }
  }
  const contentType = preferredRdfType(accept) ?? 'text/turtle'
  const body = await serializeRdf(await readTriples(store, baseUrl, path), contentType, baseUrl + path)
  return { url, contentType, body, fetchedAt: now }
}
