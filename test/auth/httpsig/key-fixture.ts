// Key pairs of every supported algorithm and their key documents, for HttpSig tests.

import { generateKeyPairSync, type KeyObject } from 'node:crypto'

export interface TestKey {
  readonly alg: string
  readonly privateKey: KeyObject
  readonly publicJwk: Record<string, unknown>
}

export function makeKey(alg: string): TestKey {
  const pair =
    alg === 'ecdsa-p256-sha256'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : alg === 'ecdsa-p384-sha384'
        ? generateKeyPairSync('ec', { namedCurve: 'P-384' })
        : alg === 'ed25519'
          ? generateKeyPairSync('ed25519')
          : generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { alg, privateKey: pair.privateKey, publicJwk: pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown> }
}

/** A key document in Turtle: `<#key>` (or `fragment`) with the JWK as an rdf:JSON literal. */
export const keyDocument = (jwk: Record<string, unknown>, controller: string, fragment = 'key') => `@prefix sec: <https://w3id.org/security#>.
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>.
<#${fragment}> a sec:JsonWebKey2020; sec:controller <${controller}>;
  sec:publicKeyJwk ${JSON.stringify(JSON.stringify(jwk))}^^rdf:JSON.`

export const ACL_PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
@prefix cert: <http://www.w3.org/ns/auth/cert#>.
@prefix vcard: <http://www.w3.org/2006/vcard/ns#>.
@prefix foaf: <http://xmlns.com/foaf/0.1/>.
`

/** An ACL giving Read of `target` to `subject` (Turtle: `acl:agent [ cert:key <K> ]`, `acl:agentGroup <G>` …). */
export const readAcl = (target: string, subject: string) => `${ACL_PREFIXES}
<#r> a acl:Authorization; acl:accessTo <${target}>; acl:mode acl:Read; ${subject}.`
