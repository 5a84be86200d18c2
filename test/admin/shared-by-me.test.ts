// "Shared by me": every ACL rule naming someone other than the owner, every share link, every grant, with whom
// and how, each with its way back; nothing the owner keeps to themselves.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { CookieJar } from '../op/op-fixture.ts'
import { addShareLink } from '../../src/account/share-links.ts'
import { BOB, POD, grant } from '../policy/grant-fixture.ts'
import { readSharedRules } from '../../src/admin/shared-by-me-page.ts'

let pod: OwnerPod
const OWNER = `${POD}/profile/card#me`
const acl = (body: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
${body}`
beforeAll(async () => {
  pod = await openOwnerPod(POD)
  await pod.seed('/%C3%89t%C3%A9/photo.ttl', '<#a> <#b> "c".')
  await pod.seed('/private/notes.ttl', '<#a> <#b> "c".')
  await pod.seed('/pub.ttl', '<#a> <#b> "c".')
  const put = async (path: string, body: string) => {
    const res = await pod.api('PUT', path, { raw: body, type: 'text/turtle' })
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  }
  await put('/%C3%89t%C3%A9/.acl', acl(`<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:default <./>; acl:mode acl:Read.`))
  // The owner's own rules only: not shared
  await put('/private/.acl', acl(''))
  await put(
    '/pub.ttl.acl',
    `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <pub.ttl>; acl:mode acl:Control.
<#all> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo <pub.ttl>; acl:mode acl:Read, acl:Append.`,
  )
  await addShareLink(pod.store, { path: '/private/notes.ttl', allows: 'read', name: 'for the plumber' }, Date.now())
  const g = await pod.api('POST', '/.admin/api/grants', { body: grant({ hasDataRegistration: `${POD}/private/` }) })
  if (g.status !== 201) throw new Error(`grant: ${g.status} ${await g.text()}`)
}, 30_000)
afterAll(() => pod.close())

const page = async (jar = pod.owner) => pod.request('/.admin/shared', { headers: { cookie: jar.header() } })

describe('GET /.admin/shared', () => {
  test('the rules naming others, with whom, what they may, and what they reach; none of the owner alone', async () => {
    const rules = await readSharedRules(pod.deps)
    // The pod's own public documents are shared with anyone too (the profile, the keys, the public type index)
    expect(rules).toEqual([
      { path: '/%C3%89t%C3%A9/', with: [BOB], modes: ['read'], reaches: 'inside' },
      { path: '/keys/', with: ['Anyone'], modes: ['read'], reaches: 'both' },
      { path: '/profile/card', with: ['Anyone'], modes: ['read'], reaches: 'this' },
      { path: '/pub.ttl', with: ['Anyone'], modes: ['read', 'add to'], reaches: 'this' },
      { path: '/settings/publicTypeIndex.ttl', with: ['Anyone'], modes: ['read'], reaches: 'this' },
    ])
  })

  test('the page shows each, decoded, with its way back: the share page, the link’s Remove, the grant’s Revoke', async () => {
    const res = await page()
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('<h1>Shared by me</h1>')
    expect(html).toContain(`href="/.admin/share?path=${encodeURIComponent('/%C3%89t%C3%A9/')}"`)
    expect(html).toContain('/Été/')
    expect(html).not.toContain('/private/.acl')
    expect(html).toContain('read what is inside')
    expect(html).toContain('Anyone')
    expect(html).toContain('for the plumber')
    // Removing a link asks first: a removed link cannot be made again
    expect(html).toMatch(
      /<form method="post" action="\/.admin\/links\/remove" data-enhance="confirm" data-confirm="Remove the link “for the plumber” to \/private\/notes.ttl\? /,
    )
    expect(html).toMatch(/<form method="post" action="\/.admin\/grants\/revoke"/)
    expect(html).toContain('aria-label="Revoke the grant for https://bob.example/profile/card#me on /private/"')
  })

  test('the Files page leads to it', async () => {
    const files = await (await pod.request('/.admin/files', { headers: { cookie: pod.owner.header() } })).text()
    expect(files).toContain('<a href="/.admin/shared">Shared by me</a>')
  })

  test('without the owner: the sign-in page, nothing listed', async () => {
    const res = await page(new CookieJar())
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toContain('/.oidc/login')
  })
})

describe('taking something back from the page leads back to it', () => {
  const post = async (path: string, fields: Record<string, string>) => {
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await page()).text())![1]!
    return pod.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: pod.owner.header(), origin: pod.base },
      body: new URLSearchParams({ csrf, ...fields }).toString(),
    })
  }
  const formIds = async (action: string) =>
    [...(await (await page()).text()).matchAll(new RegExp(`action="${action}"[^>]*>.*?name="id" value="([^"]+)"`, 'g'))].map(m => m[1]!)

  test("a link's Remove: 303 to Shared by me, which says so and lists it no more", async () => {
    // both forms on the page say where to come back
    expect((await (await page()).text()).match(/<input type="hidden" name="back" value="shared">/g)).toHaveLength(2)
    const [id] = await formIds('/.admin/links/remove')
    const res = await post('/.admin/links/remove', { id: id!, back: 'shared' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/shared?done=link-removed')
    const after = await (await pod.request(res.headers.get('location')!, { headers: { cookie: pod.owner.header() } })).text()
    expect(after).toContain('Link removed: it opens nothing from now on')
    expect(after).toContain('No share links.')
  })

  test("a grant's Revoke: 303 to Shared by me, which says so and lists it no more", async () => {
    const [id] = await formIds('/.admin/grants/revoke')
    const res = await post('/.admin/grants/revoke', { id: id!, back: 'shared' })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/.admin/shared?done=revoked')
    const after = await (await pod.request(res.headers.get('location')!, { headers: { cookie: pod.owner.header() } })).text()
    expect(after).toContain('Grant revoked: the access ends with the next request')
    expect(after).toContain('No access grants.')
  })

  test('a ?done= the page did not send shows nothing (never echoed)', async () => {
    const res = await pod.request('/.admin/shared?done=%3Cb%3Ehacked', { headers: { cookie: pod.owner.header() } })
    expect(res.status).toBe(200)
    const body = await res.text()
    expect(body).not.toContain('hacked')
    expect(body).not.toContain('class="notice"')
  })
})
