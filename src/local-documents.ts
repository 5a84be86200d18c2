// Answers the guarded fetcher for URLs on our own origin straight from the store (docs/architecture.md,
// the guarded fetcher), as the public sees them.

import type { Store } from './store/open-store.ts'
import { REMOTE_DOCUMENT_CAPS, type RemoteDoc } from './fetch/guarded-fetch.ts'
import { bodyOf, getMeta, readTriples } from './store/resources.ts'
import { serializeRdf } from './rdf/serialize-rdf.ts'
import { resolveTarget } from './store/target.ts'
import { mediaTypeOf, preferredRdfType } from './rdf/media-types.ts'
import type { PublicView } from './policy/public-view.ts'

/**
 * The pod reads its own documents on behalf of a request (a token's WebID profile, a Client ID
 * Document), and whoever sent it chose the URL. So a document is read only when the public may read
 * it (`readable`: policy/public-view.ts, the pod's one answer to that), and a private one is answered
 * exactly like a missing one (`undefined`): nothing of it — content, type, existence — can reach an
 * error message.
 */
export async function loadLocalDocument(
  store: Store,
  baseUrl: string,
  url: string,
  accept: string,
  now: number,
  readable: PublicView,
): Promise<RemoteDoc | undefined> {
  if (!(await readable(url))) return undefined
  return readOwnDocument(store, baseUrl, url, accept, now)
}

/** The largest cap of any kind of document the fetcher reads: no caller takes more. */
const OWN_BINARY_MAX_BYTES = Math.max(...Object.values(REMOTE_DOCUMENT_CAPS))

/**
 * A pod document read with the pod's own rights: only for URLs the owner chose (a group named in
 * the pod's ACLs), never for one a request names.
 */
export async function readOwnDocument(store: Store, baseUrl: string, url: string, accept: string, now: number): Promise<RemoteDoc | undefined> {
  const { path } = resolveTarget(baseUrl, url)
  const meta = await getMeta(store, path)
  if (!meta) return undefined
  if (meta.kind === 'binary') {
    // A document the pod reads for itself is small (a grant, a group); a film is not read whole for anyone.
    const blob = meta.size <= OWN_BINARY_MAX_BYTES ? bodyOf(store, meta) : undefined
    if (!blob) return undefined
    return { url, contentType: mediaTypeOf(meta.contentType) ?? '', body: await blob.text(), fetchedAt: now }
  }
  const contentType = preferredRdfType(accept) ?? 'text/turtle'
  const body = await serializeRdf(await readTriples(store, baseUrl, path), contentType, baseUrl + path)
  return { url, contentType, body, fetchedAt: now }
}
