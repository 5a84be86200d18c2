// Issue 25 in Chromium with two pods: Alice shares /trip/ with Bob's WebID in her dashboard and copies the
// link; in a fresh browser Bob opens it, signs in at his own pod, sees the trip and a photo's preview, is
// refused /private/ (and the root's listing does not reveal it), adds a photo where given Append; Alice
// takes the share back and Bob's next click is refused. His pod's consent page proposes "Only confirm who I
// am" (issue 33). Screenshots at desktop and phone width.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import type { BrowserContext, Page } from 'playwright-core'
import {
  DESKTOP,
  HOOK_TIMEOUT,
  OWNER_PASSWORD,
  PHONE,
  horizontalOverflow,
  newContext,
  screenshot,
  signInToDashboard,
  startBrowserPod,
  type RunningPod,
} from './harness.ts'
import { unstyledFields } from './page-checks.ts'

setDefaultTimeout(60_000)
let alicePod: RunningPod
let bobPod: RunningPod
let alice: BrowserContext
let bob: BrowserContext
let owner: Page
let visitor: Page
let link = ''

const a = (path: string) => alicePod.baseUrl + path
const bobWebId = () => `${bobPod.baseUrl}/profile/card#me`
// Names are not ASCII: the folder has a space and an accent
const TRIP = '/Trip%20to%20S%C3%A8te/'

/** As the dashboard's script calls the pod (owner cookie + CSRF token). */
const asOwner = (url: string, init: { method?: string; type?: string; body?: string } = {}) =>
  owner.evaluate(
    async ([u, i]) => {
      const res = await fetch(u!, {
        method: i!.method ?? 'GET',
        headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, ...(i!.type ? { 'content-type': i!.type } : {}) },
        ...(i!.body !== undefined ? { body: i!.body } : {}),
      })
      return res.status
    },
    [url, init] as const,
  )

/** A real photo-like PNG drawn in the owner's page and PUT as the owner. */
const putPicture = (url: string, color: string) =>
  owner.evaluate(
    async ([u, c]) => {
      const canvas = document.createElement('canvas')
      canvas.width = 320
      canvas.height = 200
      const g = canvas.getContext('2d')!
      g.fillStyle = c!
      g.fillRect(0, 0, 320, 200)
      g.fillStyle = '#fff'
      g.font = '28px sans-serif'
      g.fillText('Sète, day 1', 40, 110)
      const blob = await new Promise<Blob>(resolve => canvas.toBlob(b => resolve(b!), 'image/png'))
      const res = await fetch(u!, {
        method: 'PUT',
        headers: { 'x-csrf-token': document.getElementById('dashboard')!.dataset.csrf!, 'content-type': 'image/png' },
        body: blob,
      })
      return res.status
    },
    [url, color] as const,
  )

beforeAll(async () => {
  ;[alicePod, bobPod] = await Promise.all([startBrowserPod(), startBrowserPod()])
  alice = await newContext({ viewport: DESKTOP })
  bob = await newContext({ viewport: DESKTOP })
  owner = await alice.newPage()
  await signInToDashboard(owner, alicePod.baseUrl)
  expect(await putPicture(a(`${TRIP}beach.png`), '#1f6fb2')).toBe(201)
  expect(await asOwner(a(`${TRIP}notes.md`), { method: 'PUT', type: 'text/markdown', body: '# Day 1\n\nSwam at the beach.' })).toBe(201)
  expect(await asOwner(a('/private/diary.txt'), { method: 'PUT', type: 'text/plain', body: 'secret' })).toBe(201)
}, HOOK_TIMEOUT)
afterAll(async () => {
  await alice?.close()
  await bob?.close()
  await Promise.all([alicePod?.dispose(), bobPod?.dispose()])
}, HOOK_TIMEOUT)

describe('Alice shares a folder and sends the link', () => {
  test('she gives Bob\'s WebID Read and Append on the folder; "Send it" gives the link and says what he will see', async () => {
    await owner.goto(a(`/.admin/share?path=${encodeURIComponent(TRIP)}`))
    await owner.getByLabel('Who', { exact: true }).selectOption('agent')
    await owner.getByLabel('Their WebID (or the group or key URL)').fill(bobWebId())
    await owner.getByRole('checkbox', { name: 'Add', exact: true }).check()
    await owner.getByRole('button', { name: 'Share', exact: true }).click()
    await owner.getByText('Shared', { exact: true }).waitFor()
    const send = owner.locator('section', { has: owner.getByRole('heading', { name: 'Send it' }) })
    link = await send.getByLabel(`Link for ${bobWebId()}`, { exact: true }).inputValue()
    expect(link).toBe(a(`/.visitor/files?path=${encodeURIComponent(TRIP)}`))
    expect(await send.textContent()).toContain('They sign in with their own pod')
    await screenshot(owner, 'visitor-send-it')
  })
})

describe('Bob, in a fresh browser', () => {
  test('opens the link, is asked to sign in with his pod, signs in at his own provider, and lands on the trip', async () => {
    visitor = await bob.newPage()
    await visitor.goto(link)
    await visitor.getByRole('heading', { name: 'Sign in to see what is shared with you' }).waitFor()
    // The first field a person a link was sent to sees: in the page's look, not the browser's bare default
    expect(await unstyledFields(visitor)).toEqual([])
    await screenshot(visitor, 'visitor-sign-in')
    await visitor.getByLabel('Your WebID or pod provider').fill(bobWebId())
    await visitor.getByRole('button', { name: 'Sign in with your pod' }).click()
    // Bob's own pod: his password, then "Allow" for Alice's pod as an app
    await visitor.waitForURL(/\/\.oidc\/login/)
    expect(new URL(visitor.url()).origin).toBe(bobPod.baseUrl)
    await visitor.locator('#password').fill(OWNER_PASSWORD)
    await visitor.keyboard.press('Enter')
    await visitor.waitForURL(/\/\.oidc\/consent/)
    expect(await visitor.locator('main').textContent()).toContain(`Solid pod at ${new URL(alicePod.baseUrl).host}`)
    // Issue 33: Alice's pod asks only who he is, so his pod proposes exactly that, not access to his pod
    const onlyWho = visitor.getByRole('radio', { name: /Only confirm who I am/ })
    expect(await onlyWho.isChecked()).toBe(true)
    expect(await visitor.locator('h1').textContent()).toBe('Confirm who you are?')
    expect(await visitor.getByRole('radio', { name: /Allow full access/ }).isChecked()).toBe(false)
    await screenshot(visitor, 'visitor-consent')
    await visitor.setViewportSize(PHONE)
    expect(await horizontalOverflow(visitor)).toBe(0)
    await screenshot(visitor, 'visitor-consent-phone')
    await visitor.setViewportSize(DESKTOP)
    await visitor.getByRole('button', { name: 'Allow' }).click()
    await visitor.waitForURL(u => u.href.startsWith(a('/.visitor/files')))
    expect(await visitor.locator('h1').textContent()).toBe('Trip to Sète')
    expect(await visitor.locator('main').textContent()).toContain(bobWebId())
    await visitor.getByRole('link', { name: 'beach.png' }).waitFor()
    await screenshot(visitor, 'visitor-folder')
  })

  test("the photo's preview shows; the notes are shown as text", async () => {
    await visitor.getByRole('link', { name: 'beach.png' }).click()
    const img = visitor.locator('img.preview')
    await img.waitFor()
    expect(await img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(320)
    await screenshot(visitor, 'visitor-photo')
    await visitor.setViewportSize(PHONE)
    expect(await horizontalOverflow(visitor)).toBe(0)
    await screenshot(visitor, 'visitor-photo-phone')
    await visitor.setViewportSize(DESKTOP)
    await visitor.goto(a(`/.visitor/files?path=${encodeURIComponent(TRIP + 'notes.md')}`))
    expect(await visitor.locator('pre.preview-text').textContent()).toBe('# Day 1\n\nSwam at the beach.')
  })

  test("/private/ is refused, and the pod's root does not list it", async () => {
    await visitor.goto(a(`/.visitor/files?path=${encodeURIComponent('/private/')}`))
    expect(await visitor.locator('h1').textContent()).toBe('Not shared with you')
    await visitor.goto(a('/.visitor/files?path=%2F'))
    expect(await visitor.locator('main').textContent()).not.toContain('private')
    await visitor.goto(a('/.visitor/files'))
    const list = await visitor.locator('main').textContent()
    expect(list).toContain('/Trip to Sète/')
    expect(list).not.toContain('private')
    await screenshot(visitor, 'visitor-shared-with-you')
  })

  test('he adds a photo to the trip (Append)', async () => {
    await visitor.goto(link)
    await visitor.locator('#file').setInputFiles({ name: 'from bob.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a', 'hex') })
    await visitor.getByRole('button', { name: 'Upload' }).click()
    await visitor.getByRole('link', { name: 'from-bob.png' }).waitFor()
    expect(await asOwner(a(`${TRIP}from-bob.png`))).toBe(200)
  })

  test('at phone width the folder fits', async () => {
    // what he may do there, as a sentence of its own
    expect(await visitor.locator('#may').textContent()).toBe('You may add to it.')
    await visitor.setViewportSize(PHONE)
    expect(await horizontalOverflow(visitor)).toBe(0)
    await screenshot(visitor, 'visitor-folder-phone')
    await visitor.setViewportSize(DESKTOP)
  })
})

describe('Alice takes the share back', () => {
  test("Bob's next click is refused", async () => {
    await owner.goto(a(`/.admin/share?path=${encodeURIComponent(TRIP)}`))
    await owner.getByRole('button', { name: `Remove access of ${bobWebId()}` }).click()
    await owner.getByText('Access removed').waitFor()
    await visitor.getByRole('link', { name: 'beach.png' }).click()
    expect(await visitor.locator('h1').textContent()).toBe('Not shared with you')
    await screenshot(visitor, 'visitor-refused')
  })
})
