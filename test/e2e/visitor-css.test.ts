// The recipient's side of sharing (issue 25) with another implementation as the visitor's provider: Carol has
// her pod and WebID on a Community Solid Server (the dev dependency, started and stopped here); Alice shares a
// folder with that WebID; Carol signs in at Alice's pod through CSS's own login and consent, by her WebID or by
// her provider's address, sees what is shared and nothing else; answers CSS did not give are refused.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { signInOwnerApp, type OwnerApp } from './notify-client.ts'
import { CookieJar } from '../op/op-fixture.ts'
import { browse } from './visitor-client.ts'
import { createCssAccount, startCss, type CssAccount, type RunningCss } from './css-server.ts'
import { signInWithCss, type CssSignInOptions } from './css-visitor-client.ts'

let alice: RunningPod
let css: RunningCss | undefined
let carol: CssAccount
let owner: OwnerApp | undefined
const a = (path: string) => alice.baseUrl + path
// Names are not ASCII: a space and accents in the folder
const TRIP = '/trip%20%C3%A9t%C3%A9/'
const filesPage = (path: string) => a(`/.visitor/files?path=${encodeURIComponent(path)}`)

async function put(path: string, body: string, type: string) {
  const res = await owner!.fetch(a(path), { method: 'PUT', headers: { 'content-type': type }, body })
  if (res.status >= 300) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`)
}

beforeAll(async () => {
  const [pod, provider] = await Promise.allSettled([startPod(), startCss()])
  if (provider.status === 'fulfilled') css = provider.value
  if (pod.status === 'rejected' || provider.status === 'rejected') {
    await Promise.all([css?.stop(), pod.status === 'fulfilled' ? pod.value.dispose() : undefined])
    throw pod.status === 'rejected' ? pod.reason : (provider as PromiseRejectedResult).reason
  }
  alice = pod.value
  carol = await createCssAccount(css!, { email: 'carol@example.org', password: 'carol-secret-passphrase', podName: 'carol' })
  owner = await signInOwnerApp(alice, "Alice's app")
  await put(`${TRIP}notes.txt`, 'Day 1: sea.', 'text/plain')
  await put(`${TRIP}route.txt`, 'Lisbon, then Porto.', 'text/plain')
  await put('/private/diary.txt', 'secret', 'text/plain')
  await put(
    `${TRIP}.acl`,
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${alice.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#carol> a acl:Authorization; acl:agent <${carol.webId}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
    'text/turtle',
  )
}, 90_000)
afterAll(async () => {
  owner?.stop()
  // The CSS child process by its PID, whatever happened above
  await Promise.all([css?.stop(), alice?.dispose()])
})

describe("Carol's account on the Community Solid Server", () => {
  test('her WebID is on CSS and names CSS as her provider (an issuer ending in a slash)', async () => {
    expect(carol.webId).toBe(`${css!.baseUrl}carol/profile/card#me`)
    const profile = await (await fetch(carol.webId, { headers: { accept: 'text/turtle' } })).text()
    expect(profile).toContain(`solid:oidcIssuer <${css!.baseUrl}>`)
  })
})

describe("signing in at Alice's pod with a CSS account", () => {
  test("by her WebID: CSS's login and consent, back on the shared folder", async () => {
    const jar = new CookieJar()
    const done = await signInWithCss(alice, css!, carol, jar, { returnTo: TRIP })
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe(`/.visitor/files?path=${encodeURIComponent(TRIP)}`)
    const page = (await (await browse(jar, a(done.headers.get('location')!))).text()).replace(/<wbr>/g, '')
    expect(page).toContain(carol.webId)
    expect(page).toContain('notes.txt')
    expect(page).toContain('route.txt')
    const note = await browse(jar, a(`/.visitor/file?path=${encodeURIComponent(TRIP + 'notes.txt')}`))
    expect(note.status).toBe(200)
    expect(await note.text()).toBe('Day 1: sea.')

    // what is shared with her, and nothing else
    const shared = await (await browse(jar, a('/.visitor/files'))).text()
    expect(shared).toContain('/trip été/')
    expect(shared).not.toContain('private')
    for (const path of ['/private/', '/private/diary.txt', '/']) {
      const res = await browse(jar, filesPage(path))
      expect(res.status).toBe(403)
      expect(await res.text()).not.toContain('diary')
    }
  })

  test("by her provider's address, typed without the trailing slash CSS's issuer has", async () => {
    const jar = new CookieJar()
    const done = await signInWithCss(alice, css!, carol, jar, { who: css!.baseUrl.slice(0, -1), returnTo: TRIP })
    expect(done.status).toBe(303)
    const page = (await (await browse(jar, a(done.headers.get('location')!))).text()).replace(/<wbr>/g, '')
    expect(page).toContain(carol.webId)
    expect(page).toContain('notes.txt')
    expect((await browse(jar, filesPage('/private/'))).status).toBe(403)
  })
})

describe('answers CSS did not give, or gave as a refusal, are refused cleanly', () => {
  /** A sign-in that ends refused: the pod's status and page. The browser holds no visitor session after it. */
  const refusedSignIn = async (o: CssSignInOptions) => {
    const jar = new CookieJar()
    const res = await signInWithCss(alice, css!, carol, jar, { returnTo: TRIP, ...o })
    const page = await res.text()
    const after = await browse(jar, filesPage(TRIP))
    expect(after.status).toBe(303)
    expect(after.headers.get('location')).toStartWith('/.visitor/sign-in')
    return { status: res.status, page }
  }

  test('Carol presses Cancel at CSS → 400 sign_in_failed, "declined"', async () => {
    const { status, page } = await refusedSignIn({ decline: true })
    expect(status).toBe(400)
    expect(page).toContain('sign_in_failed')
    expect(page).toContain('declined')
  })

  test('an answer naming another issuer than CSS (RFC 9207 mix-up) → 400 sign_in_failed', async () => {
    const { status, page } = await refusedSignIn({ tamper: answer => answer.searchParams.set('iss', 'http://localhost:9/') })
    expect(status).toBe(400)
    expect(page).toContain('sign_in_failed')
  })

  test("a forged authorization code: CSS's token endpoint refuses it → 502 provider_unusable (invalid_grant)", async () => {
    const { status, page } = await refusedSignIn({ tamper: answer => answer.searchParams.set('code', 'forged-code') })
    expect(status).toBe(502)
    expect(page).toContain('provider_unusable')
    expect(page).toContain('invalid_grant')
  })

  test("CSS's answer replayed after it was used → 400 sign_in_failed (its state is spent)", async () => {
    let answer = ''
    const done = await signInWithCss(alice, css!, carol, new CookieJar(), {
      tamper: url => {
        answer = url.href
      },
    })
    expect(done.status).toBe(303)
    const replayed = await browse(new CookieJar(), answer)
    expect(replayed.status).toBe(400)
    expect(await replayed.text()).toContain('sign_in_failed')
  })
})
