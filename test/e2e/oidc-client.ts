// A relying party over real HTTP, as an independent app drives the pod: its Client ID Document
// on its own server, authorization through the login and consent pages, DPoP token requests.

import { CHALLENGE, CookieJar, dpopProof, field, FORM, VERIFIER, type DpopKey } from '../op/op-fixture.ts'

export interface ClientIdServer {
  /** The Client ID Document's URL, on loopback http (the pod allows it when its base URL is on localhost). */
  readonly clientId: string
  readonly redirectUri: string
  stop(): void
}

/** Serves one Client ID Document at `/id` on a free loopback port. */
export function serveClientIdDocument(clientName = 'E2E RP', scope = 'openid webid offline_access'): ClientIdServer {
  let doc = ''
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: req =>
      new URL(req.url).pathname === '/id'
        ? new Response(doc, { headers: { 'content-type': 'application/ld+json' } })
        : new Response('not found', { status: 404 }),
  })
  const origin = `http://localhost:${server.port}`
  const clientId = `${origin}/id`
  const redirectUri = `${origin}/callback`
  doc = JSON.stringify({
    '@context': ['https://www.w3.org/ns/solid/oidc-context.jsonld'],
    client_id: clientId,
    client_name: clientName,
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [`${origin}/bye`],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope,
    token_endpoint_auth_method: 'none',
  })
  return {
    clientId,
    redirectUri,
    stop: () => {
      server.stop(true)
    },
  }
}

const browse = async (jar: CookieJar, url: string, init: RequestInit = {}, fetchImpl: typeof fetch = fetch) =>
  jar.take(await fetchImpl(url, { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: jar.header() } }))

/**
 * Authorization request (PKCE with op-fixture's VERIFIER) through the login and consent pages the
 * pod shows, as a browser with `jar`; a jar already logged in and consented goes straight to the code.
 */
export interface CodeOptions {
  /** The authorization request's scope. */
  readonly scope?: string
  /** Fields the consent form adds to `decision=approve` (what the app may reach), repeated names allowed. */
  readonly consent?: readonly (readonly [string, string])[]
}

export async function obtainCodeOverHttp(
  baseUrl: string,
  client: ClientIdServer,
  jar: CookieJar,
  password: string,
  fetchImpl: typeof fetch = fetch,
  o: CodeOptions = {},
): Promise<string> {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: o.scope ?? 'openid webid offline_access',
    state: 'st',
    nonce: crypto.randomUUID(),
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  })
  let res = await browse(jar, `${baseUrl}/.oidc/auth?${params}`, {}, fetchImpl)
  for (let hop = 0; hop < 5; hop++) {
    const location = res.headers.get('location')
    if (!location) throw new Error(`the authorization stopped without a redirect: ${res.status}`)
    const url = new URL(location, baseUrl)
    if (url.origin + url.pathname === client.redirectUri) {
      const code = url.searchParams.get('code')
      if (!code) throw new Error(`the authorization ended with ${url.searchParams.get('error')}`)
      return code
    }
    const page = await (await browse(jar, url.href, {}, fetchImpl)).text()
    const interaction = field(page, 'interaction')
    const post = (path: string, fields: readonly (readonly [string, string])[]) =>
      browse(
        jar,
        `${baseUrl}${path}`,
        {
          method: 'POST',
          headers: { 'content-type': FORM, origin: baseUrl },
          body: new URLSearchParams([['csrf', field(page, 'csrf')], ['interaction', interaction], ...fields.map(([k, v]) => [k, v])]),
        },
        fetchImpl,
      )
    if (url.pathname === '/.oidc/login')
      res = await post('/.oidc/login', [
        ['return', ''],
        ['password', password],
      ])
    else if (url.pathname === '/.oidc/consent') {
      res = await post('/.oidc/consent', [['decision', 'approve'], ...(o.consent ?? [])])
      if (res.status >= 400) throw new Error(`the consent was refused: ${res.status} ${(await res.text()).slice(0, 500)}`)
    } else throw new Error(`unexpected redirect to ${url.pathname}`)
  }
  throw new Error('too many redirects in the authorization')
}

export type TokenSet = Record<string, string | number>

/**
 * A DPoP token request with a fresh proof. `tokenUrl` is where to connect; `htu` the endpoint as
 * the pod names it (its base URL), when the two differ.
 */
export async function requestTokens(
  tokenUrl: string,
  key: DpopKey,
  fields: Record<string, string>,
  htu = tokenUrl,
  fetchImpl: typeof fetch = fetch,
): Promise<Response> {
  return fetchImpl(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': FORM, dpop: await dpopProof(key, 'POST', htu, Date.now()) },
    body: new URLSearchParams(fields),
  })
}

/** Code → DPoP-bound tokens; throws unless the pod answers 200. */
export async function exchangeCode(baseUrl: string, client: ClientIdServer, key: DpopKey, code: string, fetchImpl: typeof fetch = fetch): Promise<TokenSet> {
  const tokenUrl = `${baseUrl}/.oidc/token`
  const res = await requestTokens(
    tokenUrl,
    key,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      code_verifier: VERIFIER,
    },
    tokenUrl,
    fetchImpl,
  )
  if (res.status !== 200) throw new Error(`the code exchange failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as TokenSet
}
