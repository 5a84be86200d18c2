// An in-process pod for OP tests: real store in a temp dir, controllable clock, the whole app,
// a cookie jar, DPoP keys, and Client ID Documents served to the real guarded fetcher.

import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'
import type { Store } from '../../src/store/open-store.ts'
import { s256Challenge } from '../../src/op/pkce.ts'
import { accessTokenHash } from '../../src/auth/dpop.ts'
import type { Deps } from '../../src/deps.ts'
import { openTempPod } from '../temp-pod.ts'

export const BASE = 'http://localhost:3998'
export const PASSWORD = 'correct horse battery staple'
export const WEBID = `${BASE}/profile/card#me`
export const T0 = 1_800_000_000_000

export const APP_ID = 'https://app.example/id'
export const APP_REDIRECT = 'https://app.example/callback'
export const CONTEXT = 'https://www.w3.org/ns/solid/oidc-context.jsonld'

export interface Doc {
  body: string
  type: string
  status?: number /** Answer only after this long (or never: Infinity), unless the fetcher gives up first. */
  delayMs?: number
}

export interface TestPod {
  readonly store: Store
  readonly deps: Deps
  readonly clock: { now: number }
  /** url → document answered to the guarded fetcher (any non-local host). */
  readonly docs: Map<string, Doc>
  /** How many times the fetcher went to the "network". */
  fetches(): number
  request(pathOrUrl: string, init?: RequestInit): Promise<Response>
  /** The request as given (e.g. with a client address recorded for it). */
  handle(request: Request): Promise<Response>
  close(): Promise<void>
}

export function appDocument(overrides: Record<string, unknown> = {}): Doc {
  const doc = {
    '@context': [CONTEXT],
    client_id: APP_ID,
    client_name: 'Example App',
    logo_uri: 'https://app.example/logo.png',
    client_uri: 'https://app.example/',
    redirect_uris: [APP_REDIRECT],
    post_logout_redirect_uris: ['https://app.example/bye'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: 'openid webid offline_access',
    token_endpoint_auth_method: 'none',
    ...overrides,
  }
  return { body: JSON.stringify(doc), type: 'application/ld+json' }
}

export async function openTestPod(opts: { withPassword?: boolean; args?: string[]; fetchTimeoutMs?: number } = {}): Promise<TestPod> {
  const clock = { now: T0 }
  const docs = new Map<string, Doc>([[APP_ID, appDocument()]])
  let fetches = 0
  const fetchImpl = (async (target: URL | string, init?: RequestInit) => {
    fetches++
    const headers = new Headers(init?.headers)
    const u = new URL(String(target))
    const url = `https://${headers.get('host')}${u.pathname}${u.search}`
    const doc = docs.get(url)
    if (!doc) return new Response('not found', { status: 404 })
    if (doc.delayMs) await delay(doc.delayMs, init?.signal)
    return new Response(doc.body, { status: doc.status ?? 200, headers: { 'content-type': doc.type } })
  }) as typeof fetch
  const pod = await openTempPod('op', BASE, opts.args, {
    now: () => clock.now,
    ...(opts.withPassword !== false ? { ownerPassword: PASSWORD } : {}),
    fetcher: { fetchImpl, lookup: async () => ['93.184.216.34'], ...(opts.fetchTimeoutMs ? { timeoutMs: opts.fetchTimeoutMs } : {}) },
  })
  const handler = pod.handle
  return {
    store: pod.store,
    deps: pod.deps,
    clock,
    docs,
    fetches: () => fetches,
    request: (p, init) => handler(new Request(p.startsWith('http') ? p : BASE + p, init)),
    handle: handler,
    close: pod.close,
  }
}

/** Waits `ms` (a slow server), ending early with the abort reason when the fetcher gives up. */
function delay(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : undefined
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })
}

/** A browser's cookies for one origin: Set-Cookie in, Cookie out. */
export class CookieJar {
  readonly cookies = new Map<string, string>()
  take(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return res
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }
}

export interface DpopKey {
  privateKey: CryptoKey
  jwk: JWK
  jkt: string
}

export async function newDpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const jwk = await exportJWK(publicKey)
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) }
}

export interface ProofOptions {
  iat?: number
  jti?: string
  accessToken?: string
  header?: Record<string, unknown>
  claims?: Record<string, unknown>
}

export async function dpopProof(key: DpopKey, method: string, url: string, nowMs: number, o: ProofOptions = {}): Promise<string> {
  const claims = {
    htm: method,
    htu: url,
    jti: o.jti ?? crypto.randomUUID(),
    iat: o.iat ?? Math.floor(nowMs / 1000),
    ...(o.accessToken ? { ath: accessTokenHash(o.accessToken) } : {}),
    ...o.claims,
  }
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk, ...o.header } as never).sign(key.privateKey)
}

export const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'
export const CHALLENGE = s256Challenge(VERIFIER)

export function authorizeUrl(params: Record<string, string | undefined> = {}): string {
  const p = new URLSearchParams()
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: APP_ID,
    redirect_uri: APP_REDIRECT,
    scope: 'openid webid offline_access',
    state: 'st-1',
    nonce: 'n-1',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    ...params,
  }
  for (const [k, v] of Object.entries(all)) if (v !== undefined) p.set(k, v)
  return `/.oidc/auth?${p}`
}

/** The hidden input `name` of a page. */
export function field(page: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(page)
  if (!m) throw new Error(`no field ${name} in page`)
  return m[1]!
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
export const FORM = 'application/x-www-form-urlencoded'

/** The `error` of an OP error page. */
export const pageError = (page: string) => /<code id="error">([^<]*)<\/code>/.exec(page)?.[1]

/** Logs the owner in with the jar; follows the login page for `interaction` (or none). */
export async function logIn(pod: TestPod, jar: CookieJar, interaction = ''): Promise<Response> {
  const page = jar.take(await pod.request(`/.oidc/login${interaction ? `?interaction=${interaction}` : ''}`, { headers: { cookie: jar.header() } }))
  const html = await page.text()
  return jar.take(
    await pod.request('/.oidc/login', {
      method: 'POST',
      headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE },
      body: form({ csrf: field(html, 'csrf'), interaction, return: '', password: PASSWORD }),
    }),
  )
}

/** Runs the authorization request through login and consent; returns the final redirect's URL. */
export async function authorize(pod: TestPod, jar: CookieJar, params: Record<string, string | undefined> = {}): Promise<URL> {
  let res = jar.take(await pod.request(authorizeUrl(params), { headers: { cookie: jar.header() } }))
  for (let hop = 0; hop < 5; hop++) {
    const location = res.headers.get('location')
    if (!location) throw new Error(`no redirect: ${res.status} ${await res.text()}`)
    const url = new URL(location, BASE)
    if (url.origin !== BASE) return url
    const interaction = url.searchParams.get('interaction') ?? ''
    if (url.pathname === '/.oidc/login') res = await logIn(pod, jar, interaction)
    else if (url.pathname === '/.oidc/consent') {
      const page = await jar.take(await pod.request(url.pathname + url.search, { headers: { cookie: jar.header() } })).text()
      res = jar.take(
        await pod.request('/.oidc/consent', {
          method: 'POST',
          headers: { 'content-type': FORM, cookie: jar.header(), origin: BASE },
          body: form({ csrf: field(page, 'csrf'), interaction, decision: 'approve' }),
        }),
      )
    } else throw new Error(`unexpected redirect to ${url}`)
  }
  throw new Error('too many redirects')
}

export interface TokenRequest {
  key: DpopKey
  fields: Record<string, string>
  proof?: string
  authorization?: string
}

export function tokenRequest(pod: TestPod, r: TokenRequest, proofOptions: ProofOptions = {}): Promise<Response> {
  return (async () =>
    pod.request('/.oidc/token', {
      method: 'POST',
      headers: {
        'content-type': FORM,
        dpop: r.proof ?? (await dpopProof(r.key, 'POST', `${BASE}/.oidc/token`, pod.clock.now, proofOptions)),
        ...(r.authorization !== undefined ? { authorization: r.authorization } : {}),
      },
      body: form(r.fields),
    }))()
}

export const codeFields = (code: string, more: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code,
  redirect_uri: APP_REDIRECT,
  client_id: APP_ID,
  code_verifier: VERIFIER,
  ...more,
})

/** Whole flow: a code, then tokens with `key`. */
export async function obtainTokens(pod: TestPod, jar: CookieJar, key: DpopKey, params: Record<string, string | undefined> = {}) {
  const code = (await authorize(pod, jar, params)).searchParams.get('code')!
  const res = await tokenRequest(pod, { key, fields: codeFields(code) })
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`)
  return { code, body: (await res.json()) as Record<string, string | number> }
}

/** A DPoP-authenticated request to the pod. */
export async function withToken(
  pod: TestPod,
  key: DpopKey,
  token: string,
  method: string,
  path: string,
  o: ProofOptions = {},
  headers: Record<string, string> = {},
) {
  return pod.request(path, {
    method,
    headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(key, method, BASE + path, pod.clock.now, { accessToken: token, ...o }), ...headers },
  })
}
