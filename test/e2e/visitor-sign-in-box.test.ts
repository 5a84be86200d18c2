// The visitor's sign-in box takes what people type: a provider's host (`alice.example`), its address with or
// without a slash, a WebID, or `localhost:4510` — https everywhere, plain http only for localhost. Over real HTTP,
// with a Solid provider on loopback that answers only its configuration and a WebID profile.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { typeIntoSignIn } from './visitor-client.ts'

let pod: RunningPod
let host: ReturnType<typeof Bun.serve>
let H = ''
let PORT = 0

beforeAll(async () => {
  host = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname
      if (path === '/alice') return new Response(`<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${H}>.`, { headers: { 'content-type': 'text/turtle' } })
      if (path === '/.well-known/openid-configuration') {
        return Response.json({
          issuer: H,
          authorization_endpoint: `${H}/authorize`,
          token_endpoint: `${H}/token`,
          jwks_uri: `${H}/jwks`,
          scopes_supported: ['openid', 'webid'],
        })
      }
      return new Response('not found', { status: 404 })
    },
  })
  PORT = host.port!
  H = `http://localhost:${PORT}`
  pod = await startPod()
}, 30_000)
afterAll(async () => {
  host?.stop(true)
  await pod?.dispose()
})

/** The sign-in form posted with `who`, as a browser sends it. */
const signIn = (who: string) => typeIntoSignIn(pod, who)

describe('what the sign-in box takes', () => {
  test.each([() => `localhost:${PORT}`, () => `localhost:${PORT}/`, () => `LOCALHOST:${PORT}`, () => `${H}/`, () => `  ${H}  `, () => `${H}/alice#me`])(
    'typed %#: sent to the provider',
    async who => {
      const res = await signIn(who())
      expect(res.status).toBe(303)
      const to = new URL(res.headers.get('location')!)
      expect(to.origin + to.pathname).toBe(`${H}/authorize`)
    },
  )

  test.each(['alice.example', 'https://alice.example/', 'alice.example/'])('%j is taken as https://alice.example', async who => {
    const res = await signIn(who)
    expect(res.status).toBe(502)
    const page = await res.text()
    expect(page).toContain('provider_unusable')
    expect(page).toContain('https://alice.example')
  })

  test.each([
    ['http://alice.example/', '&quot;http://alice.example/&quot; is not a WebID or a provider address: it must be an https URL'],
    ['http://127.0.0.1:4510', '&quot;http://127.0.0.1:4510&quot; is not a WebID or a provider address: it must be an https URL'],
    ['', 'Type your WebID (such as https://you.example/profile/card#me) or your pod provider'],
  ])('%j → 400 sign_in_failed: plain http only for localhost', async (who, description) => {
    const res = await signIn(who)
    expect(res.status).toBe(400)
    const page = await res.text()
    expect(page).toContain('sign_in_failed')
    expect(page).toContain(description)
  })
})
