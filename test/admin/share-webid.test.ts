// Sharing with a person reads their WebID first (src/admin/webid-check.ts): the document must describe the
// WebID; one without #fragment is asked about ("Did you mean …#me?") before anything is written; a WebID
// that cannot be read, or whose document does not describe it, is refused with its exact status and code.
// The same function answers the script's check as typed (GET /.admin/api/webid-check).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { CookieJar, TestPod } from '../op/op-fixture.ts'
import { BASE } from '../op/op-fixture.ts'
import { openFormPod, pageError, type FormPod } from './owner-forms.ts'

let ctx: FormPod
let pod: TestPod
let owner: CookieJar
let csrf: string
const PATH = '/notes/w.ttl'
const CAROL = 'https://carol.example/profile/card'
const FOAF = 'http://xmlns.com/foaf/0.1/'
beforeAll(async () => {
  ctx = await openFormPod()
  ;({ pod, owner, csrf } = ctx)
  const res = await pod.request(PATH, {
    method: 'PUT',
    headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf, 'content-type': 'text/turtle' },
    body: '<#it> <http://purl.org/dc/terms/title> "W".',
  })
  expect(res.status).toBe(201)
  pod.docs.set(CAROL, { body: `<> <${FOAF}primaryTopic> <#i>. <#i> a <${FOAF}Person>; <${FOAF}name> "<script>alert(1)</script>".`, type: 'text/turtle' })
  pod.docs.set('https://dave.example/notes', { body: '<#x> <http://purl.org/dc/terms/title> "not a person".', type: 'text/turtle' })
  pod.docs.set('https://erin.example/page', { body: '<html>hello</html>', type: 'text/html' })
})
afterAll(() => pod.close())

const share = (value: string, extra: Record<string, string> = {}) =>
  ctx.post('/.admin/share/add', { csrf, path: PATH, version: '', kind: 'agent', value, read: 'yes', scope: 'this', ...extra })
const acl = async () => (await pod.request(`${PATH}.acl`, { headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf } })).status
const check = (webid: string) =>
  pod.request(`/.admin/api/webid-check?webid=${encodeURIComponent(webid)}`, { headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf } })

describe('refused, nothing written', () => {
  test.each([
    ['no document at that address', 'https://nobody.example/profile/card#me', 'webid_not_found'],
    ['a document of a type that is no profile (HTML)', 'https://erin.example/page#me', 'webid_not_found'],
    ['a document that does not describe it', 'https://dave.example/notes#me', 'not_a_profile'],
    ['the fragment form the document does not describe', `${CAROL}#me`, 'not_a_profile'],
  ])('%s → 422 %s', async (_what, webid, code) => {
    const res = await share(webid)
    expect(res.status).toBe(422)
    const text = await res.text()
    expect(/id="error">([a-z_]+)</.exec(text)?.[1]).toBe(code)
    expect(text).not.toContain('not a person')
    expect(await acl()).toBe(404)
    const api = await check(webid)
    expect(api.status).toBe(422)
    expect(((await api.json()) as { error: string }).error).toBe(code)
  })
  test('not a URL → 400 invalid_field', async () => {
    const res = await share('carol')
    expect(res.status).toBe(400)
    expect(await pageError(res)).toBe('invalid_field')
    expect(await acl()).toBe(404)
  })
})

describe('what was typed is kept for a second try', () => {
  const TYPED = 'https://nobody.example/profile/card?x=1&y=2#me'
  /** The share page a link of `html` leads to (its href, entities decoded), as the owner's browser opens it. */
  const follow = async (html: string, label: string) => {
    const href = new RegExp(`href="([^"]+)"[^>]*>${label}<`).exec(html)?.[1]?.replaceAll('&amp;', '&')
    expect(href).toBeDefined()
    return (await pod.request(href!, { headers: { cookie: owner.header() } })).text()
  }
  const expectTyped = (form: string, value: string) => {
    expect(form).toContain(`name="value" value="${value.replaceAll('&', '&amp;')}"`)
    expect(form).toMatch(/name="append" value="yes" checked/)
    expect(form).not.toMatch(/name="read" value="yes" checked/)
    expect(form).toMatch(/<option value="agent" selected>/)
    // "More choices" opens to show the app origin typed there
    expect(form).toMatch(/<details open><summary>More choices/)
    expect(form).toContain('name="origin" value="https://app.example"')
  }
  test("a WebID that cannot be read: 422, and 'Back to sharing' opens the form as it was typed", async () => {
    const res = await share(TYPED, { read: '', append: 'yes', origin: 'https://app.example' })
    expect(res.status).toBe(422)
    expectTyped(await follow(await res.text(), 'Back to sharing'), TYPED)
    expect(await acl()).toBe(404)
  })
  test("a WebID mistyped with a space: 400 invalid_field, and 'Back to sharing' keeps the typo to mend", async () => {
    const typo = 'https://alice.example/profile/card #me'
    const res = await share(typo, { read: '', append: 'yes', origin: 'https://app.example' })
    expect(res.status).toBe(400)
    expectTyped(await follow(await res.text(), 'Back to sharing'), typo)
  })
  test("the question about a WebID without #fragment: 'Change it' opens the form as it was typed", async () => {
    const res = await share(CAROL, { read: '', append: 'yes', origin: 'https://app.example' })
    expect(res.status).toBe(200)
    expectTyped(await follow(await res.text(), 'Change it'), CAROL)
  })
  test('the share page opened plainly has the form as always: Read ticked, nothing typed', async () => {
    const form = await (await pod.request(`/.admin/share?path=${encodeURIComponent(PATH)}`, { headers: { cookie: owner.header() } })).text()
    expect(form).toMatch(/name="read" value="yes" checked/)
    expect(form).toContain('name="value" value=""')
    expect(form).toMatch(/<details><summary>More choices/)
  })
})

describe('a WebID without #fragment is asked about', () => {
  test('the page asks "Did you mean …#i?" (the primary topic), nothing written, nothing of the document quoted', async () => {
    const res = await share(CAROL)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Did you mean <code>')
    expect(html).toContain(`Share with ${CAROL}#i</button>`)
    expect(html).not.toContain('as typed</button>')
    expect(html).not.toContain('alert(1)')
    expect(await acl()).toBe(404)
    expect(await (await check(CAROL)).json()).toEqual({ ok: false, webid: CAROL, suggestion: `${CAROL}#i`, describes: false })
  })
  test('its answer (the suggestion) shares with the person: 303, the ACL names them', async () => {
    const res = await share(`${CAROL}#i`)
    expect(res.status).toBe(303)
    const text = await (
      await pod.request(`${PATH}.acl`, { headers: { cookie: owner.header(), origin: BASE, 'x-csrf-token': csrf, accept: 'text/turtle' } })
    ).text()
    expect(text).toContain(`acl:agent <${CAROL}#i>`)
    expect(await (await check(`${CAROL}#i`)).json()).toEqual({ ok: true, webid: `${CAROL}#i` })
  })
  test('a document that describes itself: "as typed" is offered, and confirming it shares', async () => {
    pod.docs.set('https://frank.example/me', { body: `<> a <${FOAF}Person>.`, type: 'text/turtle' })
    const asked = await (await share('https://frank.example/me')).text()
    expect(asked).toContain('Share with https://frank.example/me as typed</button>')
    const version = /name="version" value="([^"]*)"/
      .exec(await (await pod.request(`/.admin/share?path=${encodeURIComponent(PATH)}`, { headers: { cookie: owner.header() } })).text())![1]!
      .replaceAll('&quot;', '"')
    const res = await share('https://frank.example/me', { confirmWebId: 'https://frank.example/me', version })
    expect(res.status).toBe(303)
  })
})
