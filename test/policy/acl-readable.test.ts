// HttpSig H2: a rule naming the ACL document itself lets its subjects read the ACL (to find a key they hold);
// everything else about ACLs stays with Control (WAC §6.4).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, seedTurtle, BASE, type Pod } from '../rs/pod-fixture.ts'
import { ACL_PREFIXES } from '../auth/httpsig/key-fixture.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod()
  await seedTurtle(pod.store, BASE, '/open/doc', '<#it> <http://purl.org/dc/terms/title> "x".')
  await seedTurtle(
    pod.store,
    BASE,
    '/open/doc.acl',
    `${ACL_PREFIXES}
<#keys> a acl:Authorization; acl:accessTo <doc>; acl:mode acl:Read; acl:agent [ cert:key </keys/k#key> ].
<#owner> a acl:Authorization; acl:accessTo <doc>; acl:mode acl:Read, acl:Write, acl:Control; acl:agent <${BASE}/profile/card#me>.
<#discoverable> a acl:Authorization; acl:accessTo <doc.acl>; acl:mode acl:Read, acl:Write, acl:Control; acl:agentClass foaf:Agent.`,
  )
  await seedTurtle(pod.store, BASE, '/closed/doc', '')
  await seedTurtle(
    pod.store,
    BASE,
    '/closed/doc.acl',
    `${ACL_PREFIXES}
<#public> a acl:Authorization; acl:accessTo <doc>; acl:mode acl:Read, acl:Write; acl:agentClass foaf:Agent.`,
  )
})
afterAll(async () => {
  await pod.close()
})

describe('HttpSig H2: the ACL named by rel="acl" is readable by whoever its rules allow', () => {
  test('a rule naming the ACL lets anyone GET it', async () => {
    const res = await pod.request('/open/doc.acl')
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('/keys/k#key')
    expect(res.headers.get('wac-allow')).toBe('user="read",public="read"')
  })
  test('such a rule grants Read only, whatever modes it lists', async () => {
    const res = await pod.request('/open/doc.acl', { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })
    expect(res.status).toBe(401)
  })
  test('it gives nothing on the resource the ACL governs', async () => {
    expect((await pod.request('/open/doc')).status).toBe(401)
  })
  test('Read of a resource is not Read of its ACL', async () => {
    expect((await pod.request('/closed/doc')).status).toBe(200)
    const res = await pod.request('/closed/doc.acl')
    expect(res.status).toBe(401)
    expect(res.headers.get('wac-allow')).toBe('user="",public=""')
  })
})
