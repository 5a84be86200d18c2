// A pod (in process) whose resources a requesting party from elsewhere reads through the pod's UMA AS:
// Bob's WebID profile and his OpenID provider live on "remote" hosts answered to the guarded fetcher.

import { CompactSign, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose'
import { writeTurtle } from '../e2e/seed-store.ts'
import { BASE, dpopProof, FORM, newDpopKey, openTestPod, WEBID, type DpopKey, type ProofOptions, type TestPod } from '../op/op-fixture.ts'

export { BASE, WEBID as OWNER }
export const BOB = 'https://bob.example/profile/card#me'
export const BOB_PROFILE = 'https://bob.example/profile/card'
export const BOB_OP = 'https://op.example'
export const BOB_APP = 'https://app.example/id'
export const ID_TOKEN_FORMAT = 'http://openid.net/specs/openid-connect-core-1_0.html#IDToken'
export const UMA_GRANT = 'urn:ietf:params:oauth:grant-type:uma-ticket'
export const SHARED = '/shared/doc.ttl'
export const OTHER_SHARED = '/shared/other.ttl'
export const PRIVATE = '/private/doc.ttl'

export interface UmaPod {
  readonly pod: TestPod
  /** Bob's OP signing key (kid op-1, in its JWKS). */
  readonly opKey: CryptoKey
  readonly opJwk: JWK
  /** Bob's app's DPoP key: the cnf.jkt of his ID tokens. */
  readonly bobKey: DpopKey
}

export const profileTurtle = (issuer: string) => `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
<#me> a <http://xmlns.com/foaf/0.1/Person>; solid:oidcIssuer <${issuer}>.`

/** The owner's pod with Bob's Read (and Append) on SHARED and OTHER_SHARED by ACL; PRIVATE stays owner-only. */
export async function openUmaPod(opts: { args?: string[]; fetchTimeoutMs?: number } = {}): Promise<UmaPod> {
  const pod = await openTestPod({ ...opts, fetchTimeoutMs: opts.fetchTimeoutMs ?? 300 })
  for (const path of ['/shared/', '/private/']) await writeTurtle(pod.store, BASE, path, '')
  for (const path of [SHARED, OTHER_SHARED, PRIVATE]) await writeTurtle(pod.store, BASE, path, `<#it> <http://purl.org/dc/terms/title> "${path}".`)
  await writeTurtle(
    pod.store,
    BASE,
    '/shared/.acl',
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo </shared/>; acl:default </shared/>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo </shared/>; acl:default </shared/>; acl:mode acl:Read, acl:Append.`,
  )
  const op = await generateKeyPair('ES256', { extractable: true })
  const opJwk = { ...(await exportJWK(op.publicKey)), kid: 'op-1', alg: 'ES256', use: 'sig' }
  pod.docs.set(BOB_PROFILE, { body: profileTurtle(BOB_OP), type: 'text/turtle' })
  // Dave trusts another OP: a token of Bob's OP naming his WebID verifies, but his profile does not name its issuer
  pod.docs.set('https://dave.example/profile/card', { body: profileTurtle('https://dave-op.example'), type: 'text/turtle' })
  pod.docs.set(`${BOB_OP}/.well-known/openid-configuration`, { body: JSON.stringify({ issuer: BOB_OP, jwks_uri: `${BOB_OP}/jwks` }), type: 'application/json' })
  pod.docs.set(`${BOB_OP}/jwks`, { body: JSON.stringify({ keys: [opJwk] }), type: 'application/json' })
  return { pod, opKey: op.privateKey, opJwk, bobKey: await newDpopKey() }
}

export interface IdTokenParts {
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
  key?: CryptoKey
}

/** Bob's Solid-OIDC ID token as his OP signs it; `undefined` in header or claims removes that member. */
export function bobIdToken(u: UmaPod, p: IdTokenParts = {}): Promise<string> {
  const iat = Math.floor(u.pod.clock.now / 1000)
  const header = { alg: 'ES256', kid: 'op-1', typ: 'JWT', ...p.header }
  const claims = {
    iss: BOB_OP,
    sub: BOB,
    webid: BOB,
    aud: [BOB_APP, 'solid'],
    azp: BOB_APP,
    iat,
    exp: iat + 600,
    cnf: { jkt: u.bobKey.jkt },
    jti: crypto.randomUUID(),
    ...p.claims,
  }
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader(header as never).sign(p.key ?? u.opKey)
}

/** The ticket of the UMA challenge an anonymous request gets. */
export async function ticketFor(pod: TestPod, path: string, method = 'GET'): Promise<string> {
  const res = await pod.request(path, { method })
  if (res.status !== 401) throw new Error(`expected 401 from ${method} ${path}, got ${res.status}`)
  return umaTicketOf(res)
}

export function umaTicketOf(res: Response): string {
  const m = /UMA realm="[^"]*", as_uri="[^"]*", ticket="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')
  if (!m) throw new Error(`no UMA challenge in ${res.headers.get('www-authenticate')}`)
  return m[1]!
}

export interface Exchange {
  ticket?: string
  claimToken?: string
  format?: string
  /** The whole DPoP header; by default a fresh proof with `key` (Bob's app key). */
  dpop?: string | null
  key?: DpopKey
  proof?: ProofOptions
  fields?: Record<string, string>
  headers?: Record<string, string>
}

/** POST /.uma/token with a ticket, a claim token and a DPoP proof; `undefined` fields are left out. */
export async function exchange(u: UmaPod, e: Exchange): Promise<Response> {
  const fields: Record<string, string> = { grant_type: UMA_GRANT, ...(e.ticket !== undefined ? { ticket: e.ticket } : {}) }
  if (e.claimToken !== undefined) fields.claim_token = e.claimToken
  const format = 'format' in e ? e.format : ID_TOKEN_FORMAT
  if (format !== undefined) fields.claim_token_format = format
  Object.assign(fields, e.fields)
  for (const [k, v] of Object.entries(fields)) if (v === '') delete fields[k]
  const dpop = e.dpop === undefined ? await dpopProof(e.key ?? u.bobKey, 'POST', `${BASE}/.uma/token`, u.pod.clock.now, e.proof) : e.dpop
  return u.pod.request('/.uma/token', {
    method: 'POST',
    headers: { 'content-type': FORM, ...(dpop !== null ? { dpop } : {}), ...e.headers },
    body: new URLSearchParams(fields),
  })
}

/** A successful exchange for Bob on `path`: the access token. */
export async function bobToken(u: UmaPod, path = SHARED, method = 'GET'): Promise<string> {
  const res = await exchange(u, { ticket: await ticketFor(u.pod, path, method), claimToken: await bobIdToken(u) })
  if (res.status !== 200) throw new Error(`exchange failed: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { access_token: string }).access_token
}
