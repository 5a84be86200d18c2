// A visitor's sign-in whose provider cannot be used, over real HTTP: the pod as the relying party and, on loopback,
// a host that answers only what each case needs (a WebID profile, a provider's configuration, its token endpoint,
// keys without keys). Each refusal with its exact status and code; the other ones are in visitor.test.ts.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { typeIntoSignIn } from './visitor-client.ts'

let pod: RunningPod
let host: ReturnType<typeof Bun.serve>
let H = ''

beforeAll(async () => {
  host = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname
      const json = (v: unknown) => Response.json(v)
      // A WebID whose profile names a provider that is not there (its configuration answers 404)
      if (path === '/carol')
        return new Response(`<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${H}/gone>.`, { headers: { 'content-type': 'text/turtle' } })
      if (path === '/.well-known/openid-configuration') {
        return json({
          issuer: H,
          authorization_endpoint: `${H}/authorize`,
          token_endpoint: `${H}/token`,
          jwks_uri: `${H}/jwks`,
          scopes_supported: ['openid', 'webid'],
          authorization_response_iss_parameter_supported: true,
        })
      }
      if (path === '/token' && req.method === 'POST') return json({ access_token: 'a', token_type: 'DPoP', id_token: 'not.checked.yet' })
      // The provider's keys: a JSON object without a keys array
      if (path === '/jwks') return json({})
      return new Response('not found', { status: 404 })
    },
  })
  H = `http://localhost:${host.port}`
  pod = await startPod()
}, 30_000)
afterAll(async () => {
  host?.stop(true)
  await pod?.dispose()
})

/** The sign-in form posted with `who`, as a browser sends it. */
const signIn = (who: string) => typeIntoSignIn(pod, who)

describe('a provider the pod cannot use', () => {
  test('a WebID whose provider does not answer → 502 fetch_failed naming its configuration', async () => {
    const res = await signIn(`${H}/carol#me`)
    expect(res.status).toBe(502)
    const page = await res.text()
    expect(page).toContain('fetch_failed')
    expect(page).toContain('/gone/.well-known/openid-configuration')
  })

  test('a provider whose keys cannot be read → the callback is 502 issuer_keys_unavailable, no visitor session', async () => {
    const started = await signIn(H)
    expect(started.status).toBe(303)
    const authorize = new URL(started.headers.get('location')!)
    expect(authorize.origin + authorize.pathname).toBe(`${H}/authorize`)
    const state = authorize.searchParams.get('state')!
    const res = await fetch(`${pod.baseUrl}/.visitor/callback?code=c&state=${encodeURIComponent(state)}&iss=${encodeURIComponent(H)}`, { redirect: 'manual' })
    expect(res.status).toBe(502)
    expect(await res.text()).toContain('issuer_keys_unavailable')
    expect(res.headers.get('set-cookie')).toBeNull()
  })
})
