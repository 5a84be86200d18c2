// What the in-process DPoP benches (dpop-get-cpu.ts, dpop-get-parts.ts, dpop-auth-cpu.ts) share: a test pod with a public
// and an owner-only 1 KB document and the owner's DPoP-bound token, the authenticator as the server builds it, and one
// ES256 verification of a different signature each time (the signature-check bound's unit, signature-bound.ts).
import { generateKeyPairSync, sign, verify } from 'node:crypto'
import { writeTurtle } from '../e2e/seed-store.ts'
import { DOC_1K } from './documents.ts'
import { BASE, CookieJar, newDpopKey, obtainTokens, openTestPod } from '../op/op-fixture.ts'
import { makeIssuerKeyResolver } from '../../src/auth/issuer-keys.ts'
import { makeWebIdIssuerResolver } from '../../src/auth/webid-issuers.ts'
import { makeAuthenticator } from '../../src/auth/authenticate.ts'
import { makePublicView } from '../../src/policy/public-view.ts'

export const PUBLIC_DOC = '/bench/doc-1k'
export const OWNER_DOC = '/private/doc-1k'
/** Proofs per second of iat, well within one key's share of the replay memory (auth/dpop-replay.ts). */
export const PER_SECOND = 4000

type TestPod = Awaited<ReturnType<typeof openTestPod>>

/** A test pod with `/bench/` readable by anyone and both documents; the owner's DPoP key and access token. */
export async function openDpopBenchPod() {
  const pod = await openTestPod()
  await writeTurtle(pod.store, BASE, '/bench/', '')
  await writeTurtle(
    pod.store,
    BASE,
    '/bench/.acl',
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#public> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <${BASE}/bench/>; acl:default <${BASE}/bench/>; acl:mode acl:Read.`,
  )
  await writeTurtle(pod.store, BASE, PUBLIC_DOC, DOC_1K)
  await writeTurtle(pod.store, BASE, OWNER_DOC, DOC_1K)
  const key = await newDpopKey()
  const { body } = await obtainTokens(pod, new CookieJar(), key)
  return { pod, key, token: body.access_token as string }
}

/** The DPoP/Bearer authenticator alone, built from the pod's own dependencies as the server builds it. */
export const benchAuthenticator = (pod: TestPod) =>
  makeAuthenticator({
    ...pod.deps,
    baseUrl: pod.deps.cfg.baseUrl,
    readableByPublic: makePublicView(pod.deps.decider, pod.deps.cfg.baseUrl),
    getIssuerKeys: makeIssuerKeyResolver({ baseUrl: BASE, ownJwks: pod.deps.signingKeys.publicJwks, fetchDoc: pod.deps.fetchDoc, now: pod.deps.now }),
    getWebIdIssuers: makeWebIdIssuerResolver(pod.deps.fetchDoc),
    umaTokenType: 'bearer',
  })

/** One ES256 verification per call, of 1,024 different signatures in turn, as proofs arrive (signature-bound.ts says why). */
export function es256Verifier(): () => void {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const signed = Buffer.from('x'.repeat(450))
  const signatures = Array.from({ length: 1024 }, () => sign('sha256', signed, { key: ec.privateKey, dsaEncoding: 'ieee-p1363' }))
  let v = 0
  return () => {
    if (!verify('sha256', signed, { key: ec.publicKey, dsaEncoding: 'ieee-p1363' }, signatures[v++ % signatures.length]!)) throw new Error('did not verify')
  }
}
