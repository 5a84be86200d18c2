// The same flow driven by a widely used, standards-compliant OpenID Connect client library with
// DPoP support (openid-client v6, on oauth4webapi): discovery, PKCE S256, RFC 9207 iss check,
// ID token validation, DPoP-bound code exchange, refresh, userinfo, a protected resource, JAR.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import * as client from 'openid-client'
import { exportJWK, generateKeyPair } from 'jose'
import { OWNER_PASSWORD, startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
let rp: ReturnType<typeof Bun.serve>
let clientId = ''
let redirectUri = ''

beforeAll(async () => {
  pod = await startPod()
  rp = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: req =>
      new URL(req.url).pathname === '/id'
        ? new Response(
            JSON.stringify({
              '@context': 'https://www.w3.org/ns/solid/oidc-context.jsonld',
              client_id: clientId,
              client_name: 'openid-client RP',
              redirect_uris: [redirectUri],
              post_logout_redirect_uris: [`http://localhost:${rp.port}/bye`],
              grant_types: ['authorization_code', 'refresh_token'],
              scope: 'openid webid offline_access',
              token_endpoint_auth_method: 'none',
            }),
            { headers: { 'content-type': 'application/ld+json' } },
          )
        : new Response('not found', { status: 404 }),
  })
  clientId = `http://localhost:${rp.port}/id`
  redirectUri = `http://localhost:${rp.port}/callback`
}, 30_000)

afterAll(async () => {
  rp?.stop(true)
  await pod?.dispose()
})

type Jar = Map<string, string>
const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')

/** The browser: follows our login and consent pages with a cookie jar until the redirect leaves the pod. */
async function userAgent(start: URL, jar: Jar = new Map()): Promise<URL> {
  const go = async (url: string, init: RequestInit = {}) => {
    const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader(jar) } })
    for (const line of res.headers.getSetCookie()) {
      const [p] = line.split(';')
      const i = p!.indexOf('=')
      jar.set(p!.slice(0, i), p!.slice(i + 1))
    }
    return res
  }
  const hidden = (page: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page)![1]!
  const post = (url: string, fields: Record<string, string>) =>
    go(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: pod.baseUrl }, body: new URLSearchParams(fields) })
  let res = await go(start.href)
  for (let hop = 0; hop < 6; hop++) {
    const location = new URL(res.headers.get('location')!, pod.baseUrl)
    if (location.origin !== pod.baseUrl) return location
    const page = await (await go(location.href)).text()
    const interaction = hidden(page, 'interaction')
    res =
      location.pathname === '/.oidc/login'
        ? await post(`${pod.baseUrl}/.oidc/login`, { csrf: hidden(page, 'csrf'), interaction, return: '', password: OWNER_PASSWORD })
        : await post(`${pod.baseUrl}/.oidc/consent`, { csrf: hidden(page, 'csrf'), interaction, decision: 'approve' })
  }
  throw new Error('the authorization did not come back to the client')
}

describe('openid-client v6 with a Client ID Document (public client, PKCE S256, DPoP)', () => {
  let config: client.Configuration
  let dpop: client.DPoPHandle
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
  const browser: Jar = new Map()

  test('discovers the provider', async () => {
    config = await client.discovery(new URL(pod.baseUrl), clientId, { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }, client.None(), {
      execute: [client.allowInsecureRequests],
    })
    expect(config.serverMetadata().issuer).toBe(pod.baseUrl)
    expect(config.serverMetadata().supportsPKCE('S256')).toBe(true)
    dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
  })

  test('authorization code grant with PKCE, state, nonce, iss and DPoP; the ID token validates', async () => {
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const nonce = client.randomNonce()
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid webid offline_access',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    const callback = await userAgent(url, browser)
    expect(callback.searchParams.get('iss')).toBe(pod.baseUrl)
    tokens = await client.authorizationCodeGrant(
      config,
      callback,
      { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true },
      undefined,
      { DPoP: dpop },
    )
    expect(tokens.token_type).toBe('dpop')
    const claims = tokens.claims()!
    expect(claims.webid).toBe(`${pod.baseUrl}/profile/card#me`)
    expect(claims.sub).toBe(`${pod.baseUrl}/profile/card#me`)
    expect(claims.aud).toEqual([clientId, 'solid'])
    expect(typeof tokens.refresh_token).toBe('string')
  })

  test('a DPoP-protected GET of a private resource', async () => {
    const res = await client.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${pod.baseUrl}/`),
      'GET',
      undefined,
      new Headers({ accept: 'text/turtle' }),
      { DPoP: dpop },
    )
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Storage')
  })

  test('refresh (rotated) and userinfo', async () => {
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: dpop })
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect(refreshed.token_type).toBe('dpop')
    const info = await client.fetchUserInfo(config, refreshed.access_token, tokens.claims()!.sub, { DPoP: dpop })
    expect(info.webid).toBe(`${pod.baseUrl}/profile/card#me`)
  })

  test('RP-initiated logout to a registered post_logout_redirect_uri', async () => {
    const url = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: `http://localhost:${rp.port}/bye`,
      state: 'bye',
    })
    // the browser that signed in follows the app's logout link: its session's hint, no question asked
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader(browser) } })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`http://localhost:${rp.port}/bye?state=bye`)
  })
})

describe('openid-client v6 with dynamic registration and a signed request object (JAR)', () => {
  test('registers (scope with webid), sends an ES256 request object, and gets DPoP-bound tokens', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
    const jwk = { ...(await exportJWK(publicKey)), kid: 'jar-1', alg: 'ES256', use: 'sig' }
    const config = await client.dynamicClientRegistration(
      new URL(pod.baseUrl),
      {
        redirect_uris: [redirectUri],
        scope: 'openid webid offline_access',
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_basic',
        jwks: { keys: [jwk] },
        client_name: 'registered RP',
      } as Partial<client.ClientMetadata>,
      client.ClientSecretBasic(),
      { execute: [client.allowInsecureRequests] },
    )
    expect(config.clientMetadata().client_secret).toBeDefined()
    const dpop = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'))
    const verifier = client.randomPKCECodeVerifier()
    const state = client.randomState()
    const url = await client.buildAuthorizationUrlWithJAR(
      config,
      {
        redirect_uri: redirectUri,
        scope: 'openid webid offline_access',
        state,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      },
      { key: privateKey, kid: 'jar-1' },
    )
    expect(url.searchParams.get('request')).toBeTruthy()
    const callback = await userAgent(url)
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }, undefined, { DPoP: dpop })
    expect(tokens.token_type).toBe('dpop')
    expect(tokens.claims()!.azp).toBe(config.clientMetadata().client_id)
    const res = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${pod.baseUrl}/`), 'GET', undefined, undefined, { DPoP: dpop })
    expect(res.status).toBe(200)
  })
})
