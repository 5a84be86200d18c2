// The whole Solid-OIDC flow over real HTTP, as an independent relying party would drive it:
// Client ID Document on its own server, authorization, login form, consent, code + iss, DPoP token
// request, refresh with rotation, then DPoP-authenticated requests to private resources.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'
import { serveClientIdDocument, type ClientIdServer } from './oidc-client.ts'

let pod: RunningPod
let rp: ClientIdServer
let clientId = ''
let redirectUri = ''
let meta: Record<string, string>
let dpop: { privateKey: CryptoKey; jwk: JWK; jkt: string }

beforeAll(async () => {
  pod = await startPod()
  rp = serveClientIdDocument()
  clientId = rp.clientId
  redirectUri = rp.redirectUri
  const pair = await generateKeyPair('ES256')
  const jwk = await exportJWK(pair.publicKey)
  dpop = { privateKey: pair.privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) }
}, 30_000)

afterAll(async () => {
  rp?.stop()
  await pod?.dispose()
})

/** A browser's cookie jar, by name. */
const jar = new Map<string, string>()
const take = (res: Response) => {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const i = pair!.indexOf('=')
    if (/Max-Age=0/i.test(line)) jar.delete(pair!.slice(0, i))
    else jar.set(pair!.slice(0, i), pair!.slice(i + 1))
  }
  return res
}
const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
const browse = async (url: string, init: RequestInit = {}) =>
  take(await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookie() } }))
const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)![1]!

const proof = (method: string, url: string, accessToken?: string) => {
  const claims: Record<string, unknown> = { htm: method, htu: url, jti: crypto.randomUUID() }
  if (accessToken) claims.ath = new Bun.CryptoHasher('sha256').update(accessToken).digest('base64url')
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: dpop.jwk }).setIssuedAt().sign(dpop.privateKey)
}
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)))
const challenge = new Bun.CryptoHasher('sha256').update(verifier).digest('base64url')

let code = ''
let tokens: Record<string, string | number> = {}

describe('an independent RP over real HTTP', () => {
  test('discovers the provider; the issuer is the pod origin', async () => {
    meta = await (await fetch(`${pod.baseUrl}/.well-known/openid-configuration`)).json()
    expect(meta.issuer).toBe(pod.baseUrl)
    expect(meta.authorization_endpoint).toBe(`${pod.baseUrl}/.oidc/auth`)
  })

  test('authorization → login form → consent → redirect with code, state and iss', async () => {
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'openid webid offline_access',
      state: 'xyz',
      nonce: 'n-0S6',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })
    const toLogin = await browse(`${meta.authorization_endpoint}?${params}`)
    expect(toLogin.status).toBe(303)
    const loginUrl = toLogin.headers.get('location')!
    expect(loginUrl).toStartWith(`${pod.baseUrl}/.oidc/login?interaction=`)
    const loginPage = await (await browse(loginUrl)).text()
    expect(loginPage).toContain('E2E RP')
    const loggedIn = await browse(`${pod.baseUrl}/.oidc/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: pod.baseUrl },
      body: new URLSearchParams({ csrf: hidden(loginPage, 'csrf'), interaction: hidden(loginPage, 'interaction'), return: '', password: OWNER_PASSWORD }),
    })
    expect(loggedIn.status).toBe(303)
    expect(jar.has('solopod_session')).toBe(true)
    const consentUrl = loggedIn.headers.get('location')!
    expect(consentUrl).toStartWith(`${pod.baseUrl}/.oidc/consent?interaction=`)
    const consentPage = await (await browse(consentUrl)).text()
    expect(consentPage).toContain('E2E RP')
    expect(consentPage).toContain('offline_access')
    const approved = await browse(`${pod.baseUrl}/.oidc/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: pod.baseUrl },
      body: new URLSearchParams({ csrf: hidden(consentPage, 'csrf'), interaction: hidden(consentPage, 'interaction'), decision: 'approve' }),
    })
    expect(approved.status).toBe(303)
    const callback = new URL(approved.headers.get('location')!)
    expect(callback.origin + callback.pathname).toBe(redirectUri)
    expect(callback.searchParams.get('state')).toBe('xyz')
    expect(callback.searchParams.get('iss')).toBe(meta.issuer!)
    code = callback.searchParams.get('code')!
    expect(code).toMatch(/^[\w-]{43}$/)
  })

  test('token request with DPoP → DPoP-bound tokens', async () => {
    const res = await fetch(meta.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await proof('POST', meta.token_endpoint!) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    tokens = await res.json()
    expect(tokens.token_type).toBe('DPoP')
    const id = decodeJwt(tokens.id_token as string)
    expect(id).toMatchObject({ iss: pod.baseUrl, webid: `${pod.baseUrl}/profile/card#me`, azp: clientId, nonce: 'n-0S6', cnf: { jkt: dpop.jkt } })
    expect(id.aud).toEqual([clientId, 'solid'])
    expect(decodeJwt(tokens.access_token as string).cnf).toEqual({ jkt: dpop.jkt })
  })

  test('refresh rotates the refresh token (same DPoP key)', async () => {
    const res = await fetch(meta.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await proof('POST', meta.token_endpoint!) },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: clientId }),
    })
    expect(res.status).toBe(200)
    const next = await res.json()
    expect(next.refresh_token).not.toBe(tokens.refresh_token)
    expect(next.token_type).toBe('DPoP')
    tokens = next
  })

  test('a DPoP-authenticated GET of the owner-only root container → 200', async () => {
    const url = `${pod.baseUrl}/`
    const anonymous = await fetch(url)
    expect(anonymous.status).toBe(401)
    const res = await fetch(url, {
      headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await proof('GET', url, tokens.access_token as string), accept: 'text/turtle' },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('wac-allow')).toContain('user="read write append control"')
  })

  test('a DPoP-authenticated GET of the root ACL (Control) → 200', async () => {
    const url = `${pod.baseUrl}/.acl`
    const res = await fetch(url, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await proof('GET', url, tokens.access_token as string) } })
    expect(res.status).toBe(200)
  })

  test('userinfo answers with the WebID', async () => {
    const url = meta.userinfo_endpoint!
    const res = await fetch(url, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await proof('GET', url, tokens.access_token as string) } })
    expect(await res.json()).toEqual({ sub: `${pod.baseUrl}/profile/card#me`, webid: `${pod.baseUrl}/profile/card#me` })
  })

  test('the server log holds no password, code, token or cookie', () => {
    const out = pod.output()
    expect(out).toContain('op.tokens_issued')
    for (const secret of [OWNER_PASSWORD, code, tokens.access_token as string, tokens.refresh_token as string, ...jar.values()])
      expect(out).not.toContain(secret)
  })

  test('a second redemption of the code fails and revokes what it issued (also the rotated tokens)', async () => {
    const res = await fetch(meta.token_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await proof('POST', meta.token_endpoint!) },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }),
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error).toBe('invalid_grant')
    const url = `${pod.baseUrl}/`
    const get = await fetch(url, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await proof('GET', url, tokens.access_token as string) } })
    expect(get.status).toBe(401)
    expect(get.headers.get('www-authenticate')).toContain(', DPoP error="invalid_token"')
  })
})
