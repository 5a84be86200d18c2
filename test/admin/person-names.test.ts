// People by name (issue 40): the owner's pages show a WebID as the name and picture of its profile, read in the
// background through the guarded fetcher — never waited for, never trusted further than plain text. The WebID's
// host stays beside the name (anyone may call themselves anything) and the WebID is one click away.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CookieJar, TestPod } from '../op/op-fixture.ts'
import { BASE } from '../op/op-fixture.ts'
import { openFormPod, type FormPod } from './owner-forms.ts'
import { makePersonCards } from '../../src/account/person-cards.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import type { FetchDoc, RemoteDoc } from '../../src/fetch/guarded-fetch.ts'

const FOAF = 'http://xmlns.com/foaf/0.1/'
const VCARD = 'http://www.w3.org/2006/vcard/ns#'
const ALICE = 'https://alice.example/profile/card#me'
const BOB = 'https://bob.example/profile/card#me'
const NOBODY = 'https://nobody.example/profile/card#me'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
let csrf: string
const PATH = '/notes/people.ttl'

beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner, csrf } = ctx)
  const res = await pod.request(PATH, {
    method: 'PUT',
    headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf, 'content-type': 'text/turtle' },
    body: '<#it> <http://purl.org/dc/terms/title> "People".',
  })
  expect(res.status).toBe(201)
  pod.docs.set(ALICE.slice(0, -3), {
    body: `<#me> a <${FOAF}Person>; <${FOAF}name> "Alice <b>Martin</b>"; <${VCARD}hasPhoto> <https://alice.example/me.jpg>.`,
    type: 'text/turtle',
  })
  pod.docs.set(BOB.slice(0, -3), { body: `<#me> a <${FOAF}Person>; <${VCARD}fn> "Bob"; <${FOAF}img> <javascript:alert(1)>.`, type: 'text/turtle' })
  pod.docs.set(NOBODY.slice(0, -3), { body: `<#me> a <${FOAF}Person>.`, type: 'text/turtle' })
  for (const webid of [ALICE, BOB, NOBODY]) {
    const shared = await ctx.post('/.admin/share/add', { csrf, path: PATH, version: await version(), kind: 'agent', value: webid, read: 'yes', scope: 'this' })
    expect(shared.status).toBe(303)
  }
})
afterAll(() => pod.close())

async function versionOf(path: string): Promise<string> {
  const res = await pod.request(`${path}.acl`, { method: 'HEAD', headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf } })
  return res.status === 200 ? (res.headers.get('etag') ?? '') : ''
}

async function version(): Promise<string> {
  const res = await pod.request(`${PATH}.acl`, { method: 'HEAD', headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf } })
  return res.status === 200 ? (res.headers.get('etag') ?? '') : ''
}

const sharePage = async () => (await pod.request(`/.admin/share?path=${encodeURIComponent(PATH)}`, { headers: { cookie: owner.header() } })).text()

describe('the share page', () => {
  test('shows names once the profiles were read (the page never waited for them)', async () => {
    await sharePage()
    await pod.deps.people.settled()
    const page = await sharePage()
    // the name as text (the profile's markup escaped), linked to the WebID, the host beside it, the picture
    expect(page).toContain(
      `<a href="${ALICE}" title="${ALICE}" rel="noreferrer">Alice &lt;b&gt;Martin&lt;/b&gt;</a> <span class="muted">(alice.example)</span>`,
    )
    expect(page).toContain('src="https://alice.example/me.jpg"')
    expect(page).toContain('referrerpolicy="no-referrer"')
    expect(page).toContain('>Bob</a> <span class="muted">(bob.example)</span>')
    // a picture that is no http(s) URL is dropped
    expect(page).not.toContain('javascript:')
    // a profile without a name: the WebID as before
    expect(page).toContain('nobody.example')
    expect(page).not.toMatch(/>[^<]*<\/a> <span class="muted">\(nobody\.example\)/)
  })

  test('"Why may someone do something here?" names the person asked about', async () => {
    const page = await (
      await pod.request(`/.admin/share?path=${encodeURIComponent(PATH)}&agent=${encodeURIComponent(ALICE)}`, { headers: { cookie: owner.header() } })
    ).text()
    expect(page).toMatch(
      /<strong><span class="person">.*Alice &lt;b&gt;Martin&lt;\/b&gt;<\/a> <span class="muted">\(alice\.example\)<\/span><\/span> may: read/,
    )
  })

  test('the activity names who changed what by their profile', async () => {
    // Bob may change the document (the owner's share page), then changes it as himself
    const bob = { principal: { webid: BOB as never, keys: [], scheme: 'DPoP' as const } }
    await pod.deps.resources.put({ principal: ownerSessionPrincipal(BASE) }, '/notes/bob.txt', 'text/plain', 'first')
    const again = await ctx.post('/.admin/share/add', {
      csrf,
      path: '/notes/bob.txt',
      version: await versionOf('/notes/bob.txt'),
      kind: 'agent',
      value: BOB,
      read: 'yes',
      write: 'yes',
      scope: 'this',
    })
    expect(again.status).toBe(303)
    await pod.deps.resources.put(bob, '/notes/bob.txt', 'text/plain', 'second, by Bob')
    await (await pod.request('/.admin/activity', { headers: { cookie: owner.header() } })).text()
    await pod.deps.people.settled()
    const page = await (await pod.request('/.admin/activity', { headers: { cookie: owner.header() } })).text()
    expect(page).toMatch(
      /<td data-label="Who"><span class="person"><a href="https:\/\/bob\.example\/profile\/card#me"[^>]*>Bob<\/a> <span class="muted">\(bob\.example\)<\/span><\/span>/,
    )
  })

  test('Apps and sessions names the people too', async () => {
    const page = await (await pod.request('/.admin/sessions', { headers: { cookie: owner.header() } })).text()
    expect(page).toContain('>Bob</a> <span class="muted">(bob.example)</span>')
  })
})

describe('person cards', () => {
  const turtle = (body: string): RemoteDoc => ({ url: 'https://x.example/card', contentType: 'text/turtle', body, fetchedAt: 0 })

  test('a name is one line of plain text: controls and bidi overrides out, at most 80 characters', async () => {
    const fetchDoc: FetchDoc = async url => turtle(`<${url}> <${FOAF}name> "Eve\\u202E\\n\\tRLO ${'x'.repeat(200)}".`)
    const cards = makePersonCards(fetchDoc)
    cards.learn(['https://x.example/card#me'])
    await cards.settled()
    const name = cards.peek('https://x.example/card#me')?.name ?? ''
    expect(name.startsWith('Eve RLO xxx')).toBe(true)
    expect(name).toHaveLength(80)
    expect(name).not.toMatch(/[\u202e\n\t]/)
  })

  test('a page never waits: while a profile is being read, nothing is known of it', async () => {
    const cards = makePersonCards(() => new Promise<RemoteDoc>(() => {}))
    cards.learn(['https://slow.example/#me'])
    expect(cards.peek('https://slow.example/#me')).toBeUndefined()
  })

  test('a profile that cannot be read is remembered as nameless, and not asked for again meanwhile', async () => {
    let asked = 0
    const fetchDoc: FetchDoc = async () => {
      asked++
      throw new Error('down')
    }
    const cards = makePersonCards(fetchDoc)
    cards.learn(['https://down.example/#me', 'https://down.example/#me'])
    await cards.settled()
    cards.learn(['https://down.example/#me'])
    await cards.settled()
    expect(asked).toBe(1)
    expect(cards.peek('https://down.example/#me')).toEqual({})
  })

  test('at most four profiles are read at once; what is not a URL is never fetched', async () => {
    let now = 0
    let most = 0
    const urls: string[] = []
    const fetchDoc: FetchDoc = async url => {
      urls.push(url)
      most = Math.max(most, ++now)
      await Bun.sleep(5)
      now--
      return turtle(`<${url}> <${FOAF}name> "P".`)
    }
    const cards = makePersonCards(fetchDoc)
    cards.learn([...Array.from({ length: 12 }, (_, i) => `https://p${i}.example/#me`), 'mailto:x@example.org', 'file:///etc/passwd'])
    await cards.settled()
    expect(most).toBe(4)
    expect(urls).toHaveLength(12)
    expect(cards.peek('https://p11.example/#me')?.name).toBe('P')
  })
})
