// The one "as the public would see it" (policy/public-view.ts): the decider's answer for the anonymous agent,
// never an ACL document or an endpoint, and it follows an ACL change at once.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makePublicView, type PublicView } from '../../src/policy/public-view.ts'
import { BASE, openAccessPod, type AccessPod } from './access-fixture.ts'

let pod: AccessPod
let publicView: PublicView
beforeAll(async () => {
  pod = await openAccessPod()
  publicView = makePublicView(pod.deps.decider, BASE)
  await pod.seed('/open/', '')
  await pod.seed(
    '/open/.acl',
    `<#p> a acl:Authorization; acl:agentClass foaf:Agent; acl:accessTo </open/>; acl:default </open/>; acl:mode acl:Read, acl:Control.`,
  )
  await pod.seed('/open/doc.ttl', '<#it> <https://example.org/p> "x".')
  await pod.seed('/open/caf%C3%A9 d.ttl', '<#it> <https://example.org/p> "x".')
  await pod.seed('/closed/doc.ttl', '<#it> <https://example.org/p> "x".')
})
afterAll(() => pod.close())

describe('as the public would see it', () => {
  test('a document the public may read (also under a non-ASCII name, and in its other spelling)', async () => {
    expect(await publicView(`${BASE}/open/doc.ttl`)).toBe(true)
    expect(await publicView(`${BASE}/open/doc.ttl#me`)).toBe(true)
    expect(await publicView(`${BASE}/open/caf%C3%A9%20d.ttl`)).toBe(true)
    expect(await publicView(`${BASE}/profile/card`)).toBe(true)
  })
  test('not a private document, a missing one under a private folder, another origin, or junk', async () => {
    for (const url of [`${BASE}/closed/doc.ttl`, `${BASE}/closed/missing.ttl`, 'https://elsewhere.example/open/doc.ttl', 'not a url', `${BASE}/open/%ZZ`]) {
      expect(await publicView(url)).toBe(false)
    }
  })
  test('never an ACL document or an endpoint, whatever the rules say (here the public has Control)', async () => {
    for (const path of ['/open/.acl', '/open/doc.ttl.acl', '/.well-known/openid-configuration', '/.oidc/jwks', '/.admin/']) {
      expect(await publicView(BASE + path)).toBe(false)
    }
  })
  test('follows an ACL change at once', async () => {
    expect(await publicView(`${BASE}/open/doc.ttl`)).toBe(true)
    await pod.seed(
      '/open/.acl',
      `<#o> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo </open/>; acl:default </open/>; acl:mode acl:Read, acl:Control.`,
    )
    expect(await publicView(`${BASE}/open/doc.ttl`)).toBe(false)
  })
})

describe('a UMA access token in the decision (policy/uma-permissions.ts)', () => {
  test('opens only its resource and modes, as far as the rules allow its WebID; what is public stays public', async () => {
    const owner = { webid: `${BASE}/profile/card#me` as never, keys: [], scheme: 'Bearer' as const }
    const url = `${BASE}/closed/doc.ttl`
    const full = await pod.deps.decider.decide(owner, url, undefined)
    expect([...full.modes].sort()).toEqual(['append', 'control', 'read', 'write'])
    const scoped = await pod.deps.decider.decide(
      {
        ...owner,
        permissions: [
          { resource: url, modes: ['read'] },
          { resource: `${BASE}/other`, modes: ['write'] },
        ],
      },
      url,
      undefined,
    )
    expect([...scoped.modes]).toEqual(['read'])
    expect(scoped.reasons.at(-1)).toContain('UMA access token')
    const card = await pod.deps.decider.decide({ ...owner, permissions: [{ resource: url, modes: ['read'] }] }, `${BASE}/profile/card`, undefined)
    expect([...card.modes]).toEqual(['read'])
  })
})
