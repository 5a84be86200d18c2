// The owner's HttpSig key documents in /keys/: what a published key document says (a public JWK controlled by the
// owner), its name rule, and the list of them. Publishing and withdrawing one are ordinary writes of the operations
// layer (resources/owner-keys.ts), so access, the essentials and notifications apply as to any other write.

import { KEYS_PATH } from '../../http/pod-paths.ts'
import type { Store } from '../../store/open-store.ts'
import { readChildren, readTriples } from '../../store/resources.ts'
import type { Quad } from '@rdfjs/types'
import { CERT, SEC } from '../../rdf/namespaces.ts'
import { ownerWebIdOf } from '../../config.ts'
import { jwkThumbprint } from '../../lib/jwk-thumbprint.ts'
import { findPublicKey } from './key-document.ts'
import type { PublicJwk } from './algorithms.ts'

/** A key document's name: one path segment, not hidden, short enough to read in a URL. */
const KEY_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/
const PROFILE_PATH = '/profile/card'
// RFC 7517 §4 and RFC 7518 §6: the members that describe a public key; anything else (ext, key_ops, kid) is dropped
const PUBLIC_MEMBERS = ['kty', 'crv', 'x', 'y', 'n', 'e', 'alg']

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

/** A key document to write: where, and its Turtle. */
export interface KeyDocument {
  readonly path: string
  readonly turtle: string
  readonly key: Omit<PublishedKey, 'linkedFromProfile'>
}

export const keyNameProblem = (name: string) =>
  KEY_NAME.test(name) ? undefined : `the key name must be 1–64 letters, digits, '.', '_' or '-', not starting with '.'; got "${name.slice(0, 80)}"`

/** `key-20261125-0042-3f9a`: sortable by creation, unique enough that two in a minute do not collide. */
export const defaultKeyName = (now: Date) => `key-${now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}-${crypto.randomUUID().slice(0, 4)}`

/** Only the public members, with `use: sig`: the document never carries more than verification needs. */
function publicPart(jwk: Record<string, unknown>): PublicJwk {
  const out: Record<string, unknown> = {}
  for (const m of PUBLIC_MEMBERS) if (jwk[m] !== undefined) out[m] = jwk[m]
  // RFC 7518 §3.4: the one JWS algorithm of a P-256 key; naming it stops a verifier from guessing
  if (out.alg === undefined && jwk.kty === 'EC' && jwk.crv === 'P-256') out.alg = 'ES256'
  return { ...out, kty: String(jwk.kty), use: 'sig' }
}

/**
 * `/keys/<name>`: a JsonWebKey2020 controlled by the owner, holding only the public members of `jwk` (which the
 * caller checked with `publicJwkProblem`, and a valid `name`).
 */
export function ownerKeyDocument(baseUrl: string, name: string, jwk: Record<string, unknown>): KeyDocument {
  const publicJwk = publicPart(jwk)
  const path = `${KEYS_PATH}${name}`
  const documentUrl = baseUrl + path
  const webid = ownerWebIdOf(baseUrl)
  const turtle = `@prefix sec: <https://w3id.org/security#>.
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>.
<#key> a sec:JsonWebKey2020; sec:controller <${webid}>;
  sec:publicKeyJwk ${JSON.stringify(JSON.stringify(publicJwk))}^^rdf:JSON.`
  return { path, turtle, key: { name, keyUrl: `${documentUrl}#key`, documentUrl, webid, publicJwk } }
}

/** The keys a document describes (the subjects of its `sec:publicKeyJwk`). */
export const keyUrlsIn = (quads: readonly Quad[]) => [...new Set(quads.filter(q => q.predicate.value === SEC('publicKeyJwk')).map(q => q.subject.value))]

/** The keys the owner's profile links with `cert:key` (HttpSig step 7: they may act as the owner). */
export const profileKeyLinks = (profile: readonly Quad[], webid: string) =>
  profile.filter(q => q.subject.value === webid && q.predicate.value === CERT('key')).map(q => q.object.value)

/** Every key described in a document of /keys/, newest document first. */
export async function listOwnerKeys(store: Store, baseUrl: string): Promise<ListedKey[]> {
  const linked = new Set(profileKeyLinks(await readTriples(store, baseUrl, PROFILE_PATH), ownerWebIdOf(baseUrl)))
  const docs = (await readChildren(store, KEYS_PATH)).filter(c => c.meta.kind === 'rdf').sort((a, b) => b.meta.modified - a.meta.modified)
  const out: ListedKey[] = []
  for (const { path, meta } of docs) {
    const quads = await readTriples(store, baseUrl, path)
    for (const keyUrl of keyUrlsIn(quads)) {
      const { jwk, problem } = findPublicKey(quads, keyUrl)
      out.push({
        name: path.slice(KEYS_PATH.length),
        keyUrl,
        documentUrl: baseUrl + path,
        ...(jwk ? { publicJwk: jwk, thumbprint: await jwkThumbprint(jwk as Parameters<typeof jwkThumbprint>[0]) } : { problem: problem! }),
        linkedFromProfile: linked.has(keyUrl),
        modified: new Date(meta.modified).toISOString(),
      })
    }
  }
  return out
}
