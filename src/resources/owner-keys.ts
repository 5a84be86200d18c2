// Publishing and withdrawing the owner's HttpSig keys as ordinary writes of the operations layer: a PUT of the key
// document in /keys/ and a PATCH of the owner's profile's `cert:key` links, for the principal the face acts as (the
// owner's pages, `solopod keys add`). So the decider, the essentials, the change feed (notifications, ETags) and every
// check of a PUT (a key document's own, auth/httpsig/key-document.ts) apply as to any other write of the same
// documents. What the documents say is auth/httpsig/owner-key-documents.ts.

import { HttpError } from '../http/errors.ts'
import { KEYS_PATH } from '../http/pod-paths.ts'
import type { Store } from '../store/open-store.ts'
import { getMeta, readTriples } from '../store/resources.ts'
import { defaultEtag } from '../store/resource-meta.ts'
import { CERT } from '../rdf/namespaces.ts'
import { ownerWebIdOf } from '../config.ts'
import { PROFILE_PATH } from '../policy/pod-essentials.ts'
import { publicJwkProblem } from '../auth/httpsig/key-document.ts'
import { keyNameProblem, keyUrlsIn, ownerKeyDocument, profileKeyLinks, type PublishedKey } from '../auth/httpsig/owner-key-documents.ts'
import type { Preconditions } from './preconditions.ts'
import type { Acting, Resources } from './resources.ts'

export interface KeyWriting {
  readonly resources: Pick<Resources, 'put' | 'patch' | 'delete'>
  /** Read only: whether a name is taken, which keys a document describes, which the profile links. */
  readonly store: Store
  readonly baseUrl: string
}

// Never replace a key: whoever holds the old private key would silently lose it, and ACLs naming it would change meaning
const ONLY_NEW: Preconditions = { ifMatch: null, ifNoneMatch: '*' }
// The profile is changed, never created: with no WebID document (the owner removed it) nothing links keys
const ONLY_EXISTING: Preconditions = { ifMatch: '*', ifNoneMatch: null }

const keyExists = (path: string) => new HttpError(409, 'key_exists', `${path} already exists; choose another name`)

/**
 * Writes `/keys/<name>` (a JsonWebKey2020 controlled by the owner) and, with `linkFromProfile`, links it from the
 * owner's profile with `cert:key`, so a request signed with it and `cred="<WebID>"` acts as the owner (HttpSig
 * step 7). Without the link the key gets only what ACLs and grants give its URL. The key document comes first:
 * until the profile links it, it verifies only what they give it.
 */
export async function publishOwnerKey(w: KeyWriting, who: Acting, name: string, jwk: unknown, opts: { linkFromProfile: boolean }): Promise<PublishedKey> {
  const badName = keyNameProblem(name)
  if (badName) throw new HttpError(400, 'invalid_key_name', badName)
  const problem = publicJwkProblem(jwk)
  if (problem) throw new HttpError(400, 'invalid_key', problem)
  const doc = ownerKeyDocument(w.baseUrl, name, jwk as Record<string, unknown>)
  try {
    await w.resources.put(who, doc.path, 'text/turtle', doc.turtle, ONLY_NEW)
  } catch (err) {
    // The PUT's 412 (a document of that name) or name clash (a folder `/keys/<name>/`): said as a taken key name
    if (err instanceof HttpError && (err.code === 'precondition_failed' || err.code === 'name_conflict')) throw keyExists(doc.path)
    throw err
  }
  if (opts.linkFromProfile) await changeProfileLinks(w, who, { insert: [doc.key.keyUrl], remove: [] })
  return { ...doc.key, linkedFromProfile: opts.linkFromProfile }
}

/**
 * Revokes the keys of `/keys/<name>`: the document is deleted, so the verifier, which reads the pod's own key
 * documents from the store on every request, refuses them from the next request on ("no such key"); then the
 * profile's `cert:key` links to them go. Undefined when there is no such key document.
 */
export async function withdrawOwnerKey(w: KeyWriting, who: Acting, name: string): Promise<{ keyUrls: string[] } | undefined> {
  if (keyNameProblem(name)) return undefined
  const path = `${KEYS_PATH}${name}`
  const meta = await getMeta(w.store, path)
  if (meta?.kind !== 'rdf') return undefined
  const keyUrls = keyUrlsIn(await readTriples(w.store, w.baseUrl, path))
  if (keyUrls.length === 0) return undefined // not a key document: the files view deletes other documents
  try {
    // The document as read: one that changed meanwhile is refused (412), not deleted unseen
    await w.resources.delete(who, path, { ifMatch: defaultEtag(meta), ifNoneMatch: null })
  } catch (err) {
    if (err instanceof HttpError && err.code === 'not_found') return undefined // withdrawn meanwhile
    throw err
  }
  await changeProfileLinks(w, who, { insert: [], remove: keyUrls })
  return { keyUrls }
}

/**
 * Adds and removes the owner's `cert:key` links with an N3 Patch, which keeps every other triple and the profile's
 * prefixes; a link already there (or already gone) is not written again.
 */
async function changeProfileLinks(w: KeyWriting, who: Acting, change: { insert: string[]; remove: string[] }): Promise<void> {
  const meta = await getMeta(w.store, PROFILE_PATH)
  if (meta?.kind !== 'rdf') return // no profile document (the owner removed it): nothing links keys
  const webid = ownerWebIdOf(w.baseUrl)
  const linked = new Set(profileKeyLinks(await readTriples(w.store, w.baseUrl, PROFILE_PATH), webid))
  const insert = change.insert.filter(k => !linked.has(k))
  const remove = change.remove.filter(k => linked.has(k))
  if (insert.length === 0 && remove.length === 0) return
  const links = (keys: string[]) => keys.map(k => `<${webid}> <${CERT('key')}> <${k}>.`).join(' ')
  const text = `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
_:keys a solid:InsertDeletePatch${insert.length ? `; solid:inserts { ${links(insert)} }` : ''}${remove.length ? `; solid:deletes { ${links(remove)} }` : ''}.`
  await w.resources.patch(who, PROFILE_PATH, { mediaType: 'text/n3', text }, ONLY_EXISTING)
}
