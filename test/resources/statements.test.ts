// `statements`: an RDF document's stored statements for a face that works on them (the owner's pages), after the
// same Read decision as `read`; the document's own named graphs apart from its default graph.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { refusal } from './refusal.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = { principal: ownerSessionPrincipal(BASE) }
const BOB = { principal: agent('https://bob.example/profile#me') }
const CAROL = { principal: agent('https://carol.example/profile#me') }
const PUBLIC = { principal: ANONYMOUS }

let pod: AccessPod
beforeAll(async () => {
  pod = await openAccessPod()
  await pod.seed('/shared/doc', '<#a> <#b> "c".')
  await pod.seed(
    '/shared/.acl',
    `<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${BOB.principal.webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.\n`,
  )
  await pod.deps.resources.put(OWNER, '/shared/graphs', 'application/trig', '<#a> <#b> "default". <#g> { <#a> <#b> "inner". }')
})
afterAll(() => pod.close())

describe('statements: Read decided first, then what is stored', () => {
  test('a reader gets the default graph as triples', async () => {
    const { triples, namedGraphs } = await pod.deps.resources.statements(BOB, '/shared/doc')
    expect(triples.map(q => [q.subject.value, q.object.value, q.graph.termType])).toEqual([[`${BASE}/shared/doc#a`, 'c', 'DefaultGraph']])
    expect(namedGraphs).toEqual([])
  })

  test("a document's named graphs come apart from its default graph, not as the store keeps them", async () => {
    const { triples, namedGraphs } = await pod.deps.resources.statements(OWNER, '/shared/graphs')
    expect(triples.map(q => q.object.value)).toEqual(['default'])
    expect(namedGraphs.map(q => [q.graph.value, q.object.value])).toEqual([[`${BASE}/shared/graphs#g`, 'inner']])
  })

  test('no Read → 403 forbidden, the public 401 unauthenticated, whether or not the document exists', async () => {
    expect(await refusal(() => pod.deps.resources.statements(CAROL, '/shared/doc'))).toEqual([403, 'forbidden'])
    expect(await refusal(() => pod.deps.resources.statements(CAROL, '/shared/missing'))).toEqual([403, 'forbidden'])
    expect(await refusal(() => pod.deps.resources.statements(PUBLIC, '/shared/doc'))).toEqual([401, 'unauthenticated'])
  })

  test('a missing document → 404 not_found, told only to a reader', async () => {
    expect(await refusal(() => pod.deps.resources.statements(OWNER, '/shared/missing'))).toEqual([404, 'not_found'])
    expect(await refusal(() => pod.deps.resources.statements(BOB, '/shared/missing'))).toEqual([404, 'not_found'])
  })
})
