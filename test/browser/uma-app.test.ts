// The UMA exchange from a real page in headless Chromium: an app on its own origin logs Bob in at
// his pod's OP, then reads Alice's shared document on her pod through her AS — so CORS on E5/E9
// and the exposed 401 challenges are proven where apps live.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { openStore } from '../../src/store/open-store.ts'
import { ensureOwner } from '../../src/first-start.ts'
import { writeTurtle } from '../e2e/seed-store.ts'
import { OWNER_PASSWORD, newContext, screenshot, startBrowserPod, type RunningPod } from './harness.ts'

const SHARED = '/shared/doc.ttl'
const SECRET = '/shared/secret.ttl'

let alice: RunningPod
let bob: RunningPod
let app: ReturnType<typeof Bun.serve>
let appOrigin = ''

/** Serves the app page (also at its redirect URI), its Client ID Document and its settings. */
function serveApp(config: () => unknown) {
  const page = Bun.file(join(import.meta.dir, 'fixtures', 'uma-app.html'))
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: req => {
      const path = new URL(req.url).pathname
      if (path === '/' || path === '/callback') return new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      if (path === '/config.json') return Response.json(config())
      if (path === '/favicon.ico') return new Response(null, { status: 204 })
      if (path === '/id') {
        return new Response(
          JSON.stringify({
            '@context': ['https://www.w3.org/ns/solid/oidc-context.jsonld'],
            client_id: `${appOrigin}/id`,
            client_name: 'UMA reader',
            redirect_uris: [`${appOrigin}/callback`],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            scope: 'openid webid offline_access',
            token_endpoint_auth_method: 'none',
          }),
          { headers: { 'content-type': 'application/ld+json' } },
        )
      }
      return new Response('not found', { status: 404 })
    },
  })
  appOrigin = `http://localhost:${server.port}`
  return server
}

beforeAll(async () => {
  bob = await startBrowserPod()
  const bobWebId = `${bob.baseUrl}/profile/card#me`
  // Alice's pod, seeded through the store before it starts: /shared/doc.ttl shared with Bob by ACL.
  alice = await startBrowserPod({
    seed: async (dataDir, base) => {
      const store = await openStore(dataDir)
      try {
        await ensureOwner(store, base, Date.now())
        await writeTurtle(store, base, '/shared/', '')
        await writeTurtle(store, base, SHARED, '<#it> <http://purl.org/dc/terms/title> "for Bob".')
        await writeTurtle(store, base, SECRET, '<#it> <http://purl.org/dc/terms/title> "Alice only".')
        await writeTurtle(
          store,
          base,
          `${SHARED}.acl`,
          `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#alice> a acl:Authorization; acl:agent <${base}/profile/card#me>; acl:accessTo <${base}${SHARED}>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${bobWebId}>; acl:accessTo <${base}${SHARED}>; acl:mode acl:Read.`,
        )
      } finally {
        await store.close()
      }
    },
  })
  app = serveApp(() => ({
    issuer: bob.baseUrl,
    clientId: `${appOrigin}/id`,
    redirectUri: `${appOrigin}/callback`,
    read: [alice.baseUrl + SHARED, alice.baseUrl + SECRET],
  }))
}, 60_000)

afterAll(async () => {
  app?.stop(true)
  await Promise.all([alice?.dispose(), bob?.dispose()])
})

interface Outcome {
  url: string
  first: number
  challenge: string
  token?: number
  tokenType?: string
  error?: string
  read?: number
  text?: string
}

describe('UMA from a browser app on another origin (issue 10)', () => {
  test("Bob signs in at his OP, the page reads Alice's shared document via her AS, and her secret stays request_denied", async () => {
    const context = await newContext()
    try {
      const page = await context.newPage()
      const failures: string[] = []
      // errors of the app page itself (the pods' login and consent pages are another suite's subject)
      page.on('console', m => {
        if (m.type() === 'error' && m.location().url.startsWith(appOrigin)) failures.push(m.text())
      })
      await page.goto(`${appOrigin}/`)
      // Bob's OP: the login page, then consent for the app
      await page.waitForURL(`${bob.baseUrl}/.oidc/login**`)
      await page.locator('input[name="password"]').fill(OWNER_PASSWORD)
      await page.keyboard.press('Enter')
      await page.waitForURL(`${bob.baseUrl}/.oidc/consent**`)
      await screenshot(page, 'uma-consent')
      await page.getByRole('button', { name: 'Allow' }).click()
      await page.waitForURL(`${appOrigin}/callback**`)
      await page.locator('#result').waitFor({ state: 'visible' })
      await screenshot(page, 'uma-app-result')
      const [shared, secret] = JSON.parse((await page.locator('#result').textContent()) ?? '[]') as Outcome[]
      // the 401 and its challenges are readable cross-origin (Access-Control-Expose-Headers)
      expect(shared!.first).toBe(401)
      expect(shared!.challenge).toMatch(new RegExp(`^UMA realm="[^"]+", as_uri="${alice.baseUrl}", ticket="[\\w-]+\\.[\\w-]{22}", DPoP algs=`))
      // E5 and E9 answered the page (CORS), and the Bearer GET passed its preflight
      expect({ token: shared!.token, tokenType: shared!.tokenType, read: shared!.read }).toEqual({ token: 200, tokenType: 'Bearer', read: 200 })
      expect(shared!.text).toContain('for Bob')
      expect({ token: secret!.token, error: secret!.error, read: secret!.read }).toEqual({ token: 403, error: 'request_denied', read: undefined })
      expect(await page.locator('#steps li.ok').count()).toBe(2)
      expect(failures.filter(f => !f.includes('403') && !f.includes('401'))).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})
