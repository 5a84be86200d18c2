// Answers the guarded fetcher for URLs on our own origin straight from the store (docs/architecture.md,
// the guarded fetcher), as the public sees them.

import type { Store } from './store/open-store.ts'
import type { RemoteDoc } from './fetch/guarded-fetch.ts'
import { getBody, getMeta, readTriples } from './store/resources.ts'
import { serializeRdf } from './rdf/serialize-rdf.ts'
import { resolveTarget } from './store/target.ts'
import { mediaTypeOf, preferredRdfType } from './rdf/media-types.ts'
import { isReservedPath } from './http/pod-paths.ts'
import { parseAclDocument } from './policy/acl-document.ts'
import { findEffectiveAcl, publicModes } from './policy/wac.ts'
import { isAcl } from './store/acl-names.ts'

/**
 * The pod reads its own documents on behalf of a request (a token's WebID profile, a Client ID
 * Document), and whoever sent it chose the URL. So a document is read only when the anonymous
 * agent may read it (WAC §5), and a private one is answered exactly like a missing one
 * (`undefined`): nothing of it — content, type, existence — can reach an error message.
 */
export async function loadLocalDocument(store: Store, baseUrl: string, url: string, accept: string, now: number): Promise<RemoteDoc | undefined> {
  const { path, url: target } = resolveTarget(baseUrl, url)
  // ACLs need Control to read (WAC §4.3), which the public never has; the pod's endpoints are no documents
  if (isAcl(target) || isReservedPath(path) || !await isPublic(store, baseUrl, target)) return undefined
  return readOwnDocument(store, baseUrl, url, accept, now)
}

/**
 * A pod document read with the pod's own rights: only for URLs the owner chose (a group named in
 * the pod's ACLs), never for one a request names.
 */
export async function readOwnDocument(store: Store, baseUrl: string, url: string, accept: string, now: number): Promise<RemoteDoc | undefined> {
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

/** Read for foaf:Agent under the effective ACL: decided before the document itself is looked at. */
async function isPublic(store: Store, baseUrl: string, targetUrl: string): Promise<boolean> {
  const effective = await findEffectiveAcl(targetUrl, async (aclUrl) => {
    const aclPath = aclUrl.slice(baseUrl.length)
    return (await getMeta(store, aclPath)) ? parseAclDocument(await readTriples(store, baseUrl, aclPath), aclUrl) : undefined
  })
  return publicModes(effective, targetUrl).has('read')
}
