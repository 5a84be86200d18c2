// The Files page's markers read each item's rules as the owner, through the operations layer (issue 35): a folder
// whose Control the owner gave up (the share page asks first) still lists, its items marked Shared.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { makeRowMarkers } from '../../src/admin/row-markers.ts'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'

const BASE = 'http://localhost:3973'
const WEBID = `${BASE}/profile/card#me`
const BOB = 'https://bob.example/profile#me'
const ACL = '@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.\n'
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
  await pod.seed('/mine/a.ttl', '<#it> <http://purl.org/dc/terms/title> "A".')
  await pod.seed('/open/a.ttl', '<#it> <http://purl.org/dc/terms/title> "A".')
  await pod.seed(
    '/open/.acl',
    `${ACL}<#o> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#p> a acl:Authorization; acl:agentClass foaf:Agent; acl:default <./>; acl:mode acl:Read.`,
  )
  // The owner kept Read only: Bob has Control here now
  await pod.seed('/given/a.ttl', '<#it> <http://purl.org/dc/terms/title> "A".')
  await pod.seed(
    '/given/.acl',
    `${ACL}<#o> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.
<#b> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
  )
})
afterAll(() => pod.close())

describe('markers from the rules the owner reads', () => {
  test('only the owner → no marker; the public reads what is inside a folder → Public, not Shared (the public is not someone)', async () => {
    const markersOf = makeRowMarkers(pod.deps)
    expect(await markersOf('/mine/a.ttl')).toEqual({ public: false, shared: false })
    expect(await markersOf('/open/a.ttl')).toEqual({ public: true, shared: false })
    expect(await markersOf('/open/')).toEqual({ public: false, shared: false })
  })

  test('rules the owner may not read (Control given up) → Shared, not a refusal of the whole listing', async () => {
    const markersOf = makeRowMarkers(pod.deps)
    expect(await markersOf('/given/a.ttl')).toEqual({ public: false, shared: true })
    expect(await markersOf('/given/')).toEqual({ public: false, shared: true })
    const res = await pod.request('/.admin/files?path=%2Fgiven%2F', { headers: { cookie: pod.owner.header() } })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<a class="badge shared" href="/.admin/share?path=%2Fgiven%2Fa.ttl"')
    // where the marker leads: the owner may not read those rules
    const share = await pod.request('/.admin/share?path=%2Fgiven%2Fa.ttl', { headers: { cookie: pod.owner.header() } })
    expect(share.status).toBe(403)
    expect(/id="error">([a-z_]+)</.exec(await share.text())?.[1]).toBe('forbidden')
  })
})
