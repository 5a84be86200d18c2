// The owner's HttpSig key documents in /keys/: publish a public JWK (linked from the profile), list them, withdraw one.

import { DataFactory } from 'n3'
import type { Quad } from '@rdfjs/types'
import { HttpError } from '../../http/errors.ts'
import { KEYS_PATH } from '../../http/pod-paths.ts'
import type { Store } from '../../store/open-store.ts'
import { getMeta, readChildren, readTriples, writeResource, deleteResource } from '../../store/resources.ts'
import { deleteLocks, writeLocks, type WithResourceLocks } from '../../store/resource-locks.ts'
import { twinPath } from '../../store/paths.ts'
import { parseRdf } from '../../rdf/parse-rdf.ts'
import { turtleByteLength } from '../../rdf/serialize-rdf.ts'
import { CERT, SEC } from '../../rdf/namespaces.ts'
import { ownerWebIdOf } from '../../config.ts'
import { jwkThumbprint } from '../../lib/jwk-thumbprint.ts'
import { findPublicKey, publicJwkProblem } from './key-document.ts'
import type { PublicJwk } from './algorithms.ts'

const { namedNode, quad } = DataFactory

/** A key document's name: one path segment, not hidden, short enough to read in a URL. */
const KEY_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/
const PROFILE_PATH = '/profile/card'
// RFC 7517 §4 and RFC 7518 §6: the members that describe a public key; anything else (ext, key_ops, kid) is dropped
const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e', 'alg']

export interface KeyWriter {
  readonly store: Store
  readonly baseUrl: string
  /** The running pod's write locks, so a key write never interleaves with a PUT of the same document. */
  readonly withResourceLocks: WithResourceLocks
}

export interface PublishedKey {
  readonly name: string
  /** `BASE/keys/<name>#key`: the keyid to sign with, and what ACLs and grants name. */
  readonly keyUrl: string
  readonly documentUrl: string
  readonly webid: string
  readonly publicJwk: PublicJwk
  readonly linkedFromProfile: boolean
}

export interface ListedKey {
  readonly name: string
  readonly keyUrl: string
  readonly documentUrl: string
  /** RFC 7638 thumbprint, to compare with the private key a person holds; absent when the JWK is unusable. */
  readonly thumbprint?: string
  readonly publicJwk?: PublicJwk
  /** Why the pod cannot verify with this key (a hand-edited document); absent when it can. */
  readonly problem?: string
  /** `<webid> cert:key <keyUrl>` in the owner's profile: signed requests with `cred="<webid>"` act as the owner. */
  readonly linkedFromProfile: boolean
  readonly modified: string
}

export const keyNameProblem = (name: string) =>
  KEY_NAME.test(name) ? undefined : `the key name must be 1–64 letters, digits, '.', '_' or '-', not starting with '.'; got "${name.slice(0, 80)}"`

/** `key-20261125-0042-3f9a`: sortable by creation, unique enough that two in a minute do not collide. */
export const defaultKeyName = (now: Date) =>
  `key-${now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}-${crypto.randomUUID().slice(0, 4)}`

/** Only the public members, with `use: sig`: the document never carries more than verification needs. */
function publicPart(jwk: Record<string, unknown>): PublicJwk {
  const out: Record<string, unknown> = {}
  for (const m of PUBLIC_MEMBERS) if (jwk[m] !== undefined) out[m] = jwk[m]
  // RFC 7518 §3.4: the one JWS algorithm of a P-256 key; naming it stops a verifier from guessing
  if (out.alg === undefined && jwk.kty === 'EC' && jwk.crv === 'P-256') out.alg = 'ES256'
  return { ...out, kty: String(jwk.kty), use: 'sig' }
}

/**
 * Writes `/keys/<name>` (a JsonWebKey2020 controlled by the owner) and, with `linkFromProfile`, links it from the
 * owner's profile with `cert:key`, so a request signed with it and `cred="<WebID>"` acts as the owner (HttpSig
 * step 7). Without the link the key gets only what ACLs and grants give its URL. The key document comes first:
 * until the profile links it, it verifies only what they give it.
 */
export async function publishOwnerKey(w: KeyWriter, name: string, jwk: unknown, now: number, opts: { linkFromProfile: boolean }): Promise<PublishedKey> {
  const badName = keyNameProblem(name)
  if (badName) throw new HttpError(400, 'invalid_key_name', badName)
  const problem = publicJwkProblem(jwk)
  if (problem) throw new HttpError(400, 'invalid_key', problem)
  const publicJwk = publicPart(jwk as Record<string, unknown>)
  const { store, baseUrl } = w
  const path = `${KEYS_PATH}${name}`
  const documentUrl = baseUrl + path
  const webid = ownerWebIdOf(baseUrl)
  const keyUrl = `${documentUrl}#key`
  const ttl = `@prefix sec: <https://w3id.org/security#>.
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>.
<#key> a sec:JsonWebKey2020; sec:controller <${webid}>;
  sec:publicKeyJwk ${JSON.stringify(JSON.stringify(publicJwk))}^^rdf:JSON.`
  const triples = await parseRdf(ttl, 'text/turtle', documentUrl)
  await w.withResourceLocks(() => writeLocks(store, path), async () => {
    // Never replace a key: whoever holds the old private key would silently lose it, and ACLs naming it would change meaning
    if (await getMeta(store, path) || await getMeta(store, twinPath(path))) throw new HttpError(409, 'key_exists', `${path} already exists; choose another name`)
    await writeResource(store, baseUrl, path, { kind: 'rdf', contentType: 'text/turtle', triples, size: turtleByteLength(triples, documentUrl) }, now)
  })
  if (opts.linkFromProfile) await changeProfileLinks(w, (links) => [...links, keyUrl], now)
  return { name, keyUrl, documentUrl, webid, publicJwk, linkedFromProfile: opts.linkFromProfile }
}

/** Every key described in a document of /keys/, newest document first. */
export async function listOwnerKeys(store: Store, baseUrl: string): Promise<ListedKey[]> {
  const webid = ownerWebIdOf(baseUrl)
  const profile = await readTriples(store, baseUrl, PROFILE_PATH)
  const linked = new Set(profile.filter(q => q.subject.value === webid && q.predicate.value === CERT('key')).map(q => q.object.value))
  const docs = (await readChildren(store, KEYS_PATH)).filter(c => c.meta.kind === 'rdf').sort((a, b) => b.meta.modified - a.meta.modified)
  const out: ListedKey[] = []
  for (const { path, meta } of docs) {
    const quads = await readTriples(store, baseUrl, path)
    const subjects = [...new Set(quads.filter(q => q.predicate.value === SEC('publicKeyJwk')).map(q => q.subject.value))]
    for (const keyUrl of subjects) {
      const { jwk, problem } = findPublicKey(quads, keyUrl)
      out.push({
        name: path.slice(KEYS_PATH.length), keyUrl, documentUrl: baseUrl + path,
        ...(jwk ? { publicJwk: jwk, thumbprint: await jwkThumbprint(jwk as Parameters<typeof jwkThumbprint>[0]) } : { problem: problem! }),
        linkedFromProfile: linked.has(keyUrl), modified: new Date(meta.modified).toISOString(),
      })
    }
  }
  return out
}

/**
 * Revokes the keys of `/keys/<name>`: the document is deleted, so the verifier, which reads the pod's own key
 * documents from the store on every request, refuses them from the next request on ("no such key"); then the
 * profile's `cert:key` links to them go. Undefined when there is no such key document.
 */
export async function withdrawOwnerKey(w: KeyWriter, name: string, now: number): Promise<{ keyUrls: string[] } | undefined> {
  if (keyNameProblem(name)) return undefined
  const { store, baseUrl } = w
  const path = `${KEYS_PATH}${name}`
  const keyUrls = await w.withResourceLocks(() => deleteLocks(store, path), async () => {
    const meta = await getMeta(store, path)
    if (meta?.kind !== 'rdf') return undefined
    const quads = await readTriples(store, baseUrl, path)
    const keys = [...new Set(quads.filter(q => q.predicate.value === SEC('publicKeyJwk')).map(q => q.subject.value))]
    if (keys.length === 0) return undefined // not a key document: the files view deletes other documents
    await deleteResource(store, baseUrl, path, now)
    return keys
  })
  if (!keyUrls) return undefined
  const gone = new Set(keyUrls)
  await changeProfileLinks(w, (links) => links.filter(l => !gone.has(l)), now)
  return { keyUrls }
}

/** Rewrites the owner's `cert:key` links, keeping every other triple and the profile's prefixes. */
async function changeProfileLinks(w: KeyWriter, change: (links: string[]) => string[], now: number): Promise<void> {
  const { store, baseUrl } = w
  const webid = ownerWebIdOf(baseUrl)
  const profileUrl = baseUrl + PROFILE_PATH
  await w.withResourceLocks(() => writeLocks(store, PROFILE_PATH), async () => {
    const meta = await getMeta(store, PROFILE_PATH)
    if (meta?.kind !== 'rdf') return // no profile document (the owner removed it): nothing links keys
    const profile = await readTriples(store, baseUrl, PROFILE_PATH)
    const isLink = (q: Quad) => q.subject.value === webid && q.predicate.value === CERT('key')
    const before = profile.filter(isLink).map(q => q.object.value)
    const after = [...new Set(change(before))]
    if (after.length === before.length && after.every((l, i) => l === before[i])) return
    const triples = [...profile.filter(q => !isLink(q)).map(q => quad(q.subject, q.predicate, q.object)),
      ...after.map(l => quad(namedNode(webid), namedNode(CERT('key')), namedNode(l)))]
    await writeResource(store, baseUrl, PROFILE_PATH, {
      kind: 'rdf', contentType: meta.contentType, triples, size: turtleByteLength(triples, profileUrl),
      ...(meta.prefixes ? { prefixes: meta.prefixes } : {}),
    }, now)
  })
}
