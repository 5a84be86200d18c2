// Grants where people and apps use them: a third-party app page reads the public GrantData schema
// across origins (CORS) but cannot create a grant; the signed-in owner creates, reads and revokes one
// from the pod's own origin, in headless Chromium, over HTTPS.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext } from 'playwright-core'
import { newContext, screenshot, signInAsOwner, startBrowserPod, type RunningPod } from './harness.ts'
import { makeLocalhostCertificate } from '../e2e/tls-cert.ts'

let dir: string
let pod: RunningPod
let app: ReturnType<typeof Bun.serve>
let appOrigin = ''
let context: BrowserContext

const ACL = (s: string) => `http://www.w3.org/ns/auth/acl#${s}`
const INTEROP = (s: string) => `http://www.w3.org/ns/solid/interop#${s}`
const grantFor = (base: string) => ({
  grantee: 'https://bob.example/profile/card#me',
  grantedBy: `${base}/profile/card#me`,
  dataOwner: `${base}/profile/card#me`,
  registeredShapeTree: 'https://shapes.example/trees#Project',
  hasDataRegistration: `${base}/projects/`,
  hasStorage: `${base}/`,
  scopeOfGrant: INTEROP('AllFromRegistry'),
  accessMode: [ACL('Read')],
})

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-browser-grants-'))
  pod = await startBrowserPod({ tls: makeLocalhostCertificate(dir) })
  app = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => new Response('<!doctype html><title>Some app</title><h1>Some app</h1>', { headers: { 'content-type': 'text/html' } }),
  })
  appOrigin = `http://localhost:${app.port}`
  // The browser trusts the test's self-signed certificate, as a person would after installing it
  context = await newContext({ ignoreHTTPSErrors: true })
}, 60_000)
afterAll(async () => {
  await context?.close()
  app?.stop(true)
  await pod?.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('GrantData in a real browser', () => {
  test('an app on another origin reads the public schema (CORS) but cannot create a grant', async () => {
    const page = await context.newPage()
    await page.goto(`${appOrigin}/`)
    const result = await page.evaluate(
      async ({ base, grant }) => {
        const schemaRes = await fetch(`${base}/.admin/schemas/grant-data.json`)
        const schema = await schemaRes.json()
        // /.admin/ answers no CORS (only the schema is public): the browser refuses the preflight, so the POST is never sent
        const post = await fetch(`${base}/.admin/api/grants`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(grant),
        }).then(
          r => `answered ${r.status}`,
          (e: unknown) => `blocked: ${e instanceof TypeError}`,
        )
        return { type: schemaRes.headers.get('content-type'), required: schema.required, additional: schema.additionalProperties, post }
      },
      { base: pod.baseUrl, grant: grantFor(pod.baseUrl) },
    )
    expect(result.type).toBe('application/schema+json')
    expect(result.additional).toBe(false)
    expect(result.required).toContain('hasStorage')
    expect(result.post).toBe('blocked: true')
    await page.close()
  })

  test('the signed-in owner creates a grant, reads it as JSON and Turtle, asks why, and revokes it', async () => {
    const page = await context.newPage()
    await page.goto(`${pod.baseUrl}/.oidc/login?return=/.admin/sessions`)
    await signInAsOwner(page)
    await page.waitForURL(`${pod.baseUrl}/.admin/sessions`)
    // The API itself, called from a same-origin document as any script of the owner's would; the dashboard's
    // Grants panel over it is driven in grants-keys.test.ts
    await page.goto(`${pod.baseUrl}/.admin/schemas/grant-data.json`)
    const created = await page.evaluate(async grant => {
      const { token } = await (await fetch('/.admin/api/csrf')).json()
      const res = await fetch('/.admin/api/grants', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body: JSON.stringify(grant),
      })
      return { status: res.status, location: res.headers.get('location'), body: await res.json(), token }
    }, grantFor(pod.baseUrl))
    expect(created.status).toBe(201)
    expect(created.body).toEqual(grantFor(pod.baseUrl))
    // A person follows the grant's URL: the JSON, as the browser shows it
    await page.goto(created.location!)
    expect(JSON.parse(await page.locator('body').innerText())).toEqual(grantFor(pod.baseUrl))
    await screenshot(page, 'grant-json')
    const turtle = await page.evaluate(async url => (await fetch(url, { headers: { accept: 'text/turtle' } })).text(), created.location!)
    expect(turtle).toContain('interop:DataGrant')
    const why = await page.evaluate(async q => (await fetch(`/.admin/api/access?${new URLSearchParams(q)}`)).json(), {
      agent: 'https://bob.example/profile/card#me',
      resource: `${pod.baseUrl}/projects/p1`,
    })
    expect(why.because.read).toEqual([{ source: 'grant', grant: created.location, scope: 'AllFromRegistry', as: 'grantee' }])
    const revoked = await page.evaluate(async ({ url, token }) => (await fetch(url, { method: 'DELETE', headers: { 'x-csrf-token': token } })).status, {
      url: created.location!,
      token: created.token,
    })
    expect(revoked).toBe(204)
    await page.close()
  })
})
