// Apps get only what the owner gives them (issue 24), over real HTTP: the consent page's choice, the
// resource server's 403 outside it (DPoP tokens, UMA tokens bought through the app, notifications), the
// dashboard changing it for the next request, and the refusals of bad choices.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { expectRsError } from '../rs/rs-helpers.ts'
import { listenOnSocket, signInOwnerApp, subscribe, type OwnerApp } from './notify-client.ts'
import { exchangeCode, serveClientIdDocument } from './oidc-client.ts'
import { readUmaChallenge, requestUmaToken, umaTokenEndpoint } from './uma-client.ts'
import { CHALLENGE, dpopProof, field, newDpopKey } from '../op/op-fixture.ts'
import { csrfToken } from './owner-login.ts'

let pod: RunningPod
let full: OwnerApp
let limited: OwnerApp
const url = (path: string) => pod.baseUrl + path
// Names are not ASCII: a space and accents in the folder, encoded `#`, `?`, `%` and `+` in the document
const ETE = '/%C3%89t%C3%A9%20photos/'
const ETE_DOC = `${ETE}caf%C3%A9%20%23%3F%25+.ttl`
const TURTLE = { 'content-type': 'text/turtle' }

async function put(app: OwnerApp, path: string, body = '<#a> <http://example.org/p> "1".') {
  const res = await app.fetch(url(path), { method: 'PUT', headers: TURTLE, body })
  if (res.status >= 300) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`)
}

/** The owner's dashboard API, with the login cookie of the browser that approved the app. */
async function ownerApi(method: string, path: string, body?: unknown): Promise<Response> {
  const jar = full.browser
  const csrf = await csrfToken(pod.baseUrl, jar)
  return fetch(url(path), {
    method,
    headers: { cookie: jar.header(), 'x-csrf-token': csrf, origin: pod.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
}
const setAccess = (clientId: string, body: unknown) => ownerApi('PUT', `/.admin/api/apps/access?client_id=${encodeURIComponent(clientId)}`, body)

beforeAll(async () => {
  pod = await startPod()
  full = await signInOwnerApp(pod, 'Full access app')
  await put(full, '/photos/a.ttl')
  await put(full, '/private/secret.ttl')
  await put(full, ETE_DOC)
  await put(full, '/doc.ttl')
  limited = await signInOwnerApp(pod, 'Photos app', {
    consent: [
      ['access', 'folders'],
      ['folder', '/photos/'],
      ['right', 'write'],
      ['new_folder', '/Été photos/'],
      ['new_right', 'read'],
    ],
  })
}, 60_000)
afterAll(async () => {
  full?.stop()
  limited?.stop()
  await pod?.dispose()
})

describe('an app the owner allowed only /photos/ (read and write) and /Été photos/ (read)', () => {
  test('reads and writes in /photos/; WAC-Allow says what it may do there', async () => {
    const read = await limited.fetch(url('/photos/a.ttl'))
    expect(read.status).toBe(200)
    expect(read.headers.get('wac-allow')).toBe('user="read write append",public=""')
    expect((await limited.fetch(url('/photos/b.ttl'), { method: 'PUT', headers: TURTLE, body: '<#b> <http://example.org/p> "2".' })).status).toBe(201)
    expect((await limited.fetch(url('/photos/'), { method: 'POST', headers: { ...TURTLE, slug: 'posted' }, body: '' })).status).toBe(201)
    expect((await limited.fetch(url('/photos/b.ttl'), { method: 'DELETE' })).status).toBe(204)
  })

  test("does not read the pod's metrics (403 forbidden); the owner's full-access app does (200)", async () => {
    // X-Forwarded-For from loopback: a client behind a proxy on the machine, so not local and the token decides
    const metrics = url('/.well-known/solopod/metrics')
    const refused = await limited.fetch(metrics, { headers: { 'x-forwarded-for': '203.0.113.7' } })
    expect(refused.status).toBe(403)
    expect(await refused.text()).toStartWith('forbidden:')
    expect((await full.fetch(metrics, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(200)
  })

  test("gets 403 outside_app_scope elsewhere, even with the owner's WebID, saying what it may reach", async () => {
    const text = await expectRsError(await limited.fetch(url('/private/secret.ttl')), 403, 'outside_app_scope')
    expect(text).toContain('/photos/')
    await expectRsError(await limited.fetch(url('/')), 403, 'outside_app_scope')
    await expectRsError(await limited.fetch(url('/private/new.ttl'), { method: 'PUT', headers: TURTLE, body: '' }), 403, 'outside_app_scope')
    // the full-access app still reaches it: the rules did not change; a copy read with credentials is the browser's own
    const read = await full.fetch(url('/private/secret.ttl'))
    expect(read.status).toBe(200)
    expect(read.headers.get('cache-control')).toBe('private, no-cache')
  })

  test('cannot read or write an ACL, even in its own folder: it was never given Control', async () => {
    await expectRsError(await limited.fetch(url('/photos/.acl')), 403, 'outside_app_scope')
    await expectRsError(
      await limited.fetch(url('/photos/.acl'), { method: 'PUT', headers: TURTLE, body: '<#x> a <http://www.w3.org/ns/auth/acl#Authorization>.' }),
      403,
      'outside_app_scope',
    )
    expect((await full.fetch(url('/photos/.acl'))).status).toBe(404)
  })

  test('reads the folder with an awkward name the owner typed on the consent page (made for it), but does not write there', async () => {
    expect((await limited.fetch(url(ETE_DOC))).status).toBe(200)
    await expectRsError(await limited.fetch(url(ETE_DOC), { method: 'PUT', headers: TURTLE, body: '' }), 403, 'outside_app_scope')
  })

  test('what is public stays readable (the app could read it without a token)', async () => {
    expect((await limited.fetch(url('/profile/card'))).status).toBe(200)
  })

  test('UMA tokens bought through the app are limited the same way (azp)', async () => {
    const trade = async (path: string) => {
      const { asUri, ticket } = readUmaChallenge(await fetch(url(path)))
      return requestUmaToken(await umaTokenEndpoint(asUri), ticket, limited.tokens.id_token as string, limited.key)
    }
    const refused = await trade('/private/secret.ttl')
    expect(refused.status).toBe(403)
    const body = (await refused.json()) as { error: string; error_description: string }
    expect(body.error).toBe('request_denied')
    expect(body.error_description).toContain('the owner allowed this app only')
    const allowed = await trade('/photos/a.ttl')
    expect(allowed.status).toBe(200)
    const rpt = ((await allowed.json()) as { access_token: string }).access_token
    const proof = await dpopProof(limited.key, 'GET', url('/photos/a.ttl'), Date.now(), { accessToken: rpt })
    expect((await fetch(url('/photos/a.ttl'), { headers: { authorization: `Bearer ${rpt}`, dpop: proof } })).status).toBe(200)
  })

  test('notifications: it may subscribe to /photos/ and not to /private/', async () => {
    expect((await subscribe(pod, 'WebSocketChannel2023', url('/photos/'), {}, limited.fetch)).status).toBe(200)
    const refused = await subscribe(pod, 'WebSocketChannel2023', url('/private/secret.ttl'), {}, limited.fetch)
    expect(refused.status).toBe(403)
  })
})

describe('an open notification channel of the app follows its limit', () => {
  test('re-scoped away from the topic: the next change is not sent, the channel ends with access_lost', async () => {
    const answer = await subscribe(pod, 'WebSocketChannel2023', url('/photos/a.ttl'), {}, limited.fetch)
    expect(answer.status).toBe(200)
    const { socket, inbox } = await listenOnSocket(answer.body.receiveFrom as string)
    try {
      await put(full, '/photos/a.ttl', '<#a> <http://example.org/p> "2".')
      expect((await inbox.next()).type).toBe('Update')
      expect((await setAccess(limited.client.clientId, { folders: [{ path: '/notes/', right: 'read' }] })).status).toBe(200)
      await put(full, '/photos/a.ttl', '<#a> <http://example.org/p> "3".')
      expect((await inbox.closedWithin())?.reason).toContain('access_lost')
      expect(inbox.pending.length).toBe(0)
    } finally {
      socket.close()
      await setAccess(limited.client.clientId, {
        folders: [
          { path: '/photos/', right: 'write' },
          { path: ETE, right: 'read' },
        ],
      })
    }
  })
})

describe('the owner changes what the app may reach: it holds from the next request', () => {
  test('the dashboard lists the app with what it may reach', async () => {
    const consents = (await (await ownerApi('GET', '/.admin/api/consents')).json()) as {
      clientId: string
      access: { full: boolean; summary: string; folders: { name: string; right: string }[] }
    }[]
    const photos = consents.find(c => c.clientId === limited.client.clientId)!
    expect(photos.access.full).toBe(false)
    expect(photos.access.folders).toEqual([
      { path: '/photos/', name: '/photos/', right: 'write' },
      { path: ETE, name: '/Été photos/', right: 'read' },
    ] as never)
    expect(photos.access.summary).toBe('only to read and write /photos/, to read /Été photos/')
    expect(consents.find(c => c.clientId === full.client.clientId)!.access.full).toBe(true)
  })

  test('re-scoped to /private/ (read): /private/ opens, /photos/ closes, on the very next request', async () => {
    const res = await setAccess(limited.client.clientId, { folders: [{ path: '/private/', right: 'read' }] })
    expect(res.status).toBe(200)
    expect((await limited.fetch(url('/private/secret.ttl'))).status).toBe(200)
    await expectRsError(await limited.fetch(url('/photos/a.ttl')), 403, 'outside_app_scope')
    await expectRsError(await limited.fetch(url('/private/secret.ttl'), { method: 'PUT', headers: TURTLE, body: '' }), 403, 'outside_app_scope')
  })

  test('given full access again, it behaves exactly as a full-access app', async () => {
    expect((await setAccess(limited.client.clientId, { full: true })).status).toBe(200)
    expect((await limited.fetch(url('/photos/a.ttl'))).status).toBe(200)
    const acl = await limited.fetch(url('/photos/.acl'))
    expect(acl.status).toBe(404)
    expect((await limited.fetch(url('/'))).headers.get('wac-allow')).toBe('user="read write append control",public=""')
  })

  test('the page without JavaScript shows the choice and saves it', async () => {
    const jar = full.browser
    const pagePath = `/.admin/apps/access?client_id=${encodeURIComponent(limited.client.clientId)}`
    const page = await (await jar.take(await fetch(url(pagePath), { headers: { cookie: jar.header() } }))).text()
    expect(page).toContain('Photos app')
    expect(page).toContain('name="access" value="full" checked')
    const form = new URLSearchParams([
      ['csrf', field(page, 'csrf')],
      ['client_id', limited.client.clientId],
      ['access', 'folders'],
      ['new_folder', '/photos/'],
      ['new_right', 'read'],
    ])
    const saved = await fetch(url('/.admin/apps/access'), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: jar.header(), origin: pod.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    })
    expect(saved.status).toBe(303)
    expect((await limited.fetch(url('/photos/a.ttl'))).status).toBe(200)
    await expectRsError(await limited.fetch(url('/photos/c.ttl'), { method: 'PUT', headers: TURTLE, body: '' }), 403, 'outside_app_scope')
    const sessions = await (await fetch(url('/.admin/sessions'), { headers: { cookie: jar.header() } })).text()
    expect(sessions).toContain('only to read /photos/')
  })
})

describe('bad choices are refused and change nothing', () => {
  const before = async () =>
    ((await (await ownerApi('GET', '/.admin/api/consents')).json()) as { clientId: string; access: unknown }[]).find(
      c => c.clientId === limited.client.clientId,
    )!.access

  test('a relative path, an unknown right, a bad shape → 400, the app keeps what it had', async () => {
    const had = await before()
    const refusals: [unknown, string][] = [
      [{ folders: [{ path: 'photos', right: 'read' }] }, 'invalid_scope'],
      [{ folders: [{ path: '/photos/', right: 'control' }] }, 'invalid_scope'],
      [{ folders: [{ path: 'https://elsewhere.example/photos/', right: 'read' }] }, 'invalid_scope'],
      [{ folders: '/photos/' }, 'invalid_request'],
      [[], 'invalid_request'],
    ]
    for (const [body, code] of refusals) {
      const res = await setAccess(limited.client.clientId, body)
      expect({ body, status: res.status, code: ((await res.json()) as { error: string }).error }).toEqual({ body, status: 400, code })
    }
    expect(await before()).toEqual(had)
  })

  test('an app that was never approved → 404 not_found; no client_id → 400 invalid_request', async () => {
    const res = await setAccess('https://never.example/id', { full: true })
    expect({ status: res.status, code: ((await res.json()) as { error: string }).error }).toEqual({ status: 404, code: 'not_found' })
    const none = await ownerApi('PUT', '/.admin/api/apps/access', { full: true })
    expect({ status: none.status, code: ((await none.json()) as { error: string }).error }).toEqual({ status: 400, code: 'invalid_request' })
  })

  test('a folder where a document of that name exists → 409 name_conflict, and nothing is made', async () => {
    const res = await setAccess(limited.client.clientId, { folders: [{ path: '/doc.ttl/inner/', right: 'read' }] })
    expect({ status: res.status, code: ((await res.json()) as { error: string }).error }).toEqual({ status: 409, code: 'name_conflict' })
    expect((await full.fetch(url('/doc.ttl/'))).status).toBe(404)
  })

  test('the consent page: "only these folders" with none chosen means "Only confirm who I am": approved, and the app reads nothing', async () => {
    const client = serveClientIdDocument('Nothing chosen app')
    try {
      const jar = full.browser
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        scope: 'openid webid',
        code_challenge: CHALLENGE,
        code_challenge_method: 'S256',
      })
      const toConsent = await fetch(url(`/.oidc/auth?${params}`), { redirect: 'manual', headers: { cookie: jar.header() } })
      const consentUrl = new URL(toConsent.headers.get('location')!, pod.baseUrl)
      expect(consentUrl.pathname).toBe('/.oidc/consent')
      const page = await (await jar.take(await fetch(consentUrl, { headers: { cookie: jar.header() } }))).text()
      // full access is the default choice when the app names nothing; "Only confirm who I am" is offered; the pod's folders are listed
      expect(page).toContain('name="access" value="full" checked')
      expect(page).toContain('name="access" value="identity">')
      expect(page).toContain('value="/photos/"')
      const form = new URLSearchParams([
        ['csrf', field(page, 'csrf')],
        ['interaction', field(page, 'interaction')],
        ['decision', 'approve'],
        ['access', 'folders'],
        ['folder', '/photos/'],
        ['right', 'none'],
        ['new_folder', ''],
        ['new_right', 'write'],
      ])
      const res = await fetch(url('/.oidc/consent'), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: jar.header(), origin: pod.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
      })
      expect(res.status).toBe(303)
      const back = new URL(res.headers.get('location')!)
      expect(back.origin + back.pathname).toBe(client.redirectUri)
      const code = back.searchParams.get('code')!
      expect(code).toBeTruthy()
      const key = await newDpopKey()
      const token = (await exchangeCode(pod.baseUrl, client, key, code)).access_token as string
      const get = async (path: string) =>
        fetch(url(path), { headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', url(path), Date.now(), { accessToken: token }) } })
      await expectRsError(await get('/photos/a.ttl'), 403, 'outside_app_scope')
      await expectRsError(await get('/private/secret.ttl'), 403, 'outside_app_scope')
      const consents = (await (await ownerApi('GET', '/.admin/api/consents')).json()) as { clientId: string; access: { full: boolean; folders: unknown[] } }[]
      expect(consents.find(c => c.clientId === client.clientId)?.access).toMatchObject({ full: false, folders: [] })
    } finally {
      client.stop()
    }
  })

  test('the API: {"folders": []} is "Only confirm who I am" too', async () => {
    const res = await setAccess(limited.client.clientId, { folders: [] })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ full: false, folders: [], summary: 'nothing beyond what is public: it only confirms who you are' })
    await expectRsError(await limited.fetch(url('/photos/a.ttl')), 403, 'outside_app_scope')
    const page = await (
      await fetch(url(`/.admin/apps/access?client_id=${encodeURIComponent(limited.client.clientId)}`), { headers: { cookie: full.browser.header() } })
    ).text()
    expect(page).toContain('name="access" value="identity" checked')
  })
})

describe('what the app names is proposed', () => {
  test('a folder of this pod in the Client ID Document\'s scope: "only these folders" is chosen, with that folder to read and write', async () => {
    const wanted = url('/Recipes%20%C3%A0%20moi/')
    const client = serveClientIdDocument('Recipes app', `openid webid offline_access ${wanted}`)
    try {
      const jar = full.browser
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        scope: `openid webid ${wanted}`,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })
      const toConsent = await fetch(url(`/.oidc/auth?${params}`), { redirect: 'manual', headers: { cookie: jar.header() } })
      const page = await (await fetch(new URL(toConsent.headers.get('location')!, pod.baseUrl), { headers: { cookie: jar.header() } })).text()
      expect(page).toContain('name="access" value="folders" checked')
      expect(page).toContain('/Recipes à moi/')
      expect(page).toContain('the app asks for it')
      expect(page).toMatch(/value="\/Recipes%20%C3%A0%20moi\/">[\s\S]*?<option value="write" selected>/)
    } finally {
      client.stop()
    }
  })

  test("a class the owner's type index registers: its instance container is proposed", async () => {
    await put(
      full,
      '/types/index.ttl',
      `@prefix solid: <http://www.w3.org/ns/solid/terms#>.
<> a solid:TypeIndex, solid:ListedDocument.
<#recipes> a solid:TypeRegistration; solid:forClass <http://schema.org/Recipe>; solid:instanceContainer <${url('/Cuisine%20%C3%A9t%C3%A9/')}>.
<#notes> a solid:TypeRegistration; solid:forClass <http://schema.org/Note>; solid:instanceContainer <${url('/notes/')}>.`,
    )
    const patch = await full.fetch(url('/profile/card'), {
      method: 'PATCH',
      headers: { 'content-type': 'text/n3' },
      body: `@prefix solid: <http://www.w3.org/ns/solid/terms#>. _:p a solid:InsertDeletePatch; solid:inserts { <${url('/profile/card#me')}> solid:publicTypeIndex <${url('/types/index.ttl')}> }.`,
    })
    expect(patch.status).toBeLessThan(300)
    const client = serveClientIdDocument('Recipes by class', 'openid webid offline_access http://schema.org/Recipe')
    try {
      const jar = full.browser
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        scope: 'openid webid http://schema.org/Recipe',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })
      const toConsent = await fetch(url(`/.oidc/auth?${params}`), { redirect: 'manual', headers: { cookie: jar.header() } })
      const page = await (await fetch(new URL(toConsent.headers.get('location')!, pod.baseUrl), { headers: { cookie: jar.header() } })).text()
      expect(page).toContain('name="access" value="folders" checked')
      expect(page).toContain('/Cuisine été/')
      expect(page).toContain('your type index keeps Recipe here')
      // the other registration is not proposed
      expect(page).not.toContain('keeps Note here')
    } finally {
      client.stop()
    }
  })
})
