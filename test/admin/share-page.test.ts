// The share page acts through the operations layer as the owner (issue 35): called with the pod's deps and a form
// alone, no request to the resource server, its writes are the layer's and refused by the layer's rules; what it
// shows of an ACL is what the layer reads.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Deps } from '../../src/deps.ts'
import type { Resources } from '../../src/resources/resources.ts'
import { removeShareEntry, useInheritedAccess } from '../../src/admin/share-page.ts'
import { readAclView } from '../../src/admin/acl-view.ts'
import { ownerActing } from '../../src/admin/owner-acting.ts'
import { getMeta } from '../../src/store/resources.ts'
import { defaultEtag } from '../../src/store/resource-meta.ts'
import { refusal } from '../resources/refusal.ts'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'

const BASE = 'http://localhost:3972'
const WEBID = `${BASE}/profile/card#me`
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
})
afterAll(() => pod.close())

/** The pod's deps with its layer's writes recorded: who asked, the method, the path. */
function recordingWrites(): { deps: Deps; writes: string[] } {
  const writes: string[] = []
  const layer = pod.deps.resources
  const resources: Resources = {
    ...layer,
    put: (who, path, ...rest) => {
      writes.push(`${who.principal.webid} PUT ${path}`)
      return layer.put(who, path, ...rest)
    },
    delete: (who, path, ...rest) => {
      writes.push(`${who.principal.webid} DELETE ${path}`)
      return layer.delete(who, path, ...rest)
    },
  }
  return { deps: { ...pod.deps, resources }, writes }
}

const cardAclVersion = async () => defaultEtag((await getMeta(pod.store, '/profile/card.acl'))!)

describe("the share page's writes are the operations layer's, as the owner", () => {
  test("removing the public's row of /profile/card → the layer's 409 protected_access, the ACL unchanged", async () => {
    const { deps, writes } = recordingWrites()
    const version = await cardAclVersion()
    // the rows are in document order: the owner's, then the public's
    expect(await refusal(() => removeShareEntry(deps, { path: '/profile/card', entry: '1', version }))).toEqual([409, 'protected_access'])
    expect(writes).toEqual([`${WEBID} PUT /profile/card.acl`])
    expect(await cardAclVersion()).toBe(version)
  })

  test('"Use inherited access" for /profile/card → the layer\'s 409 protected_access, the ACL kept', async () => {
    const { deps, writes } = recordingWrites()
    const version = await cardAclVersion()
    expect(await refusal(() => useInheritedAccess(deps, { path: '/profile/card', version }))).toEqual([409, 'protected_access'])
    expect(writes).toEqual([`${WEBID} DELETE /profile/card.acl`])
    expect(await cardAclVersion()).toBe(version)
  })
})

describe('the ACL view reads through the layer', () => {
  test("statements of the ACL's own named graphs are listed as what a change would drop, each once", async () => {
    const owner = ownerActing(BASE)
    await pod.deps.resources.put(owner, '/notes/a.ttl', 'text/turtle', '<#it> <http://purl.org/dc/terms/title> "A".')
    await pod.deps.resources.put(
      owner,
      '/notes/a.ttl.acl',
      'application/trig',
      `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
<#o> a acl:Authorization; acl:agent <${WEBID}>; acl:accessTo <a.ttl>; acl:mode acl:Read, acl:Write, acl:Control.
<#notes> { <#o> rdfs:comment "keep me". }`,
    )
    const view = await readAclView(pod.deps, { path: '/notes/a.ttl' })
    expect(view.own?.map(r => r.agents)).toEqual([[WEBID]])
    expect(view.notEditable).toEqual({ count: 1, statements: ['<#notes> { <#o> rdfs:comment "keep me". }'] })
  })

  test('a resource that is not there → 404 not_found', async () => {
    expect(await refusal(() => readAclView(pod.deps, { path: '/nope' }))).toEqual([404, 'not_found'])
  })
})
