// `solopod keys add`: a new HttpSig key pair for the owner — public key document in the pod, private JWK in a 0600 file.

import { generateKeyPairSync } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { DataFactory } from 'n3'
import type { Store } from '../store/open-store.ts'
import { getMeta, readTriples, writeResource } from '../store/resources.ts'
import { parseRdf } from '../rdf/parse-rdf.ts'
import { turtleByteLength } from '../rdf/serialize-rdf.ts'
import { CERT } from '../rdf/namespaces.ts'
import { KEYS_PATH } from '../http/pod-paths.ts'
import { ownerWebIdOf } from '../config.ts'

export class KeyCommandError extends Error {}

const NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/
const PROFILE_PATH = '/profile/card'

export interface NewOwnerKey {
  readonly keyUrl: string
  readonly webid: string
  readonly privateJwk: Record<string, unknown>
}

/** `key-20261125-0042-3f9a`: sortable by creation, unique enough that two runs in a minute do not collide. */
export const defaultKeyName = (now: Date) =>
  `key-${now.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}-${crypto.randomUUID().slice(0, 4)}`

/**
 * Writes `/keys/<name>` (a JsonWebKey2020 controlled by the owner) and links it from the owner's profile
 * with `cert:key`, so a request signed with it and `cred="<WebID>"` acts as the owner (HttpSig step 7).
 */
export async function addOwnerKey(store: Store, baseUrl: string, name: string, now: number): Promise<NewOwnerKey> {
  if (!NAME.test(name)) throw new KeyCommandError(`--name must be 1–64 letters, digits, '.', '_' or '-', not starting with '.'; got "${name}"`)
  const path = `${KEYS_PATH}${name}`
  if (await getMeta(store, path) || await getMeta(store, `${path}/`)) throw new KeyCommandError(`${path} already exists; choose another --name`)
  const webid = ownerWebIdOf(baseUrl)
  const keyUrl = `${baseUrl}${path}#key`
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'jwk' })
  const publicJwk = { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y, alg: 'ES256', use: 'sig' }
  const ttl = `@prefix sec: <https://w3id.org/security#>.
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>.
<#key> a sec:JsonWebKey2020; sec:controller <${webid}>;
  sec:publicKeyJwk ${JSON.stringify(JSON.stringify(publicJwk))}^^rdf:JSON.`
  const docUrl = baseUrl + path
  const triples = await parseRdf(ttl, 'text/turtle', docUrl)
  await writeResource(store, baseUrl, path, { kind: 'rdf', contentType: 'text/turtle', triples, size: await turtleByteLength(triples, docUrl) }, now)

  const profile = await readTriples(store, baseUrl, PROFILE_PATH)
  const { namedNode, quad } = DataFactory
  const link = quad(namedNode(webid), namedNode(CERT('key')), namedNode(keyUrl))
  const updated = [...profile.map(q => quad(q.subject, q.predicate, q.object)), link]
  const profileUrl = baseUrl + PROFILE_PATH
  await writeResource(store, baseUrl, PROFILE_PATH, { kind: 'rdf', contentType: 'text/turtle', triples: updated, size: await turtleByteLength(updated, profileUrl) }, now)

  const priv = privateKey.export({ format: 'jwk' })
  return { keyUrl, webid, privateJwk: { ...publicJwk, d: priv.d, kid: keyUrl } }
}

/** The private key leaves the process only into a new file only its owner can read (mode 0600). */
export function writePrivateJwk(file: string, jwk: Record<string, unknown>): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  try {
    writeFileSync(file, `${JSON.stringify(jwk, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new KeyCommandError(`${file} already exists; it is never overwritten (choose another --out)`)
    throw err
  }
}
