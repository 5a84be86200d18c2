// The resource server's operations, called on the layer (src/resources/) with no request at all: a principal and
// plain facts in, plain results out, the RS's refusals (401/403 before 404/405/409/412), the pod's essentials.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { refusal } from './refusal.ts'
import { getMeta, readTriples } from '../../src/store/resources.ts'
import { NO_PRECONDITIONS } from '../../src/resources/preconditions.ts'
import type { IncomingBody } from '../../src/resources/new-content.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = { principal: ownerSessionPrincipal(BASE) }
const BOB = { principal: agent('https://bob.example/profile#me') }
const PUBLIC = { principal: ANONYMOUS }
const turtle = (text: string): IncomingBody => {
  const bytes = new TextEncoder().encode(text)
  return { rdf: { bytes, mediaType: 'text/turtle', contentType: 'text/turtle' } }
}
const facts = { preconditions: NO_PRECONDITIONS, contentType: 'text/turtle' }

let pod: AccessPod
beforeAll(async () => {
  pod = await openAccessPod()
  await pod.seed('/shared/doc', '')
  await pod.seed(
    '/shared/.acl',
    `<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${BOB.principal.webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.\n`,
  )
})
afterAll(() => pod.close())

describe('PUT, POST, PATCH, DELETE and read for an explicit principal', () => {
  test('the owner creates with PUT (created, an ETag), replaces (not created), reads it back, deletes it', async () => {
    const r = pod.deps.resources
    const plan = await r.planPut(OWNER, '/shared/new', facts)
    const made = await r.commitPut(OWNER, '/shared/new', plan, turtle('<#a> <#b> <#c>.'), NO_PRECONDITIONS)
    expect(made.created).toBe(true)
    const again = await r.commitPut(OWNER, '/shared/new', await r.planPut(OWNER, '/shared/new', facts), turtle('<#a> <#b> <#d>.'), {
      ifMatch: `"${made.meta.etag}"`,
      ifNoneMatch: null,
    })
    expect(again.created).toBe(false)
    expect((await readTriples(pod.store, BASE, '/shared/new')).map(q => q.object.value)).toEqual([`${BASE}/shared/new#d`])
    expect((await r.read(OWNER, '/shared/new')).meta.etag).toBe(again.meta.etag)
    await r.delete(OWNER, '/shared/new', NO_PRECONDITIONS)
    expect(await getMeta(pod.store, '/shared/new')).toBeUndefined()
  })

  test('a reader may read but not write: 403 forbidden for PUT, POST, PATCH and DELETE; the public gets 401', async () => {
    const r = pod.deps.resources
    expect((await r.read(BOB, '/shared/doc')).wacAllow).toContain('user="read"')
    expect(await refusal(() => r.planPut(BOB, '/shared/doc', facts))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.planPost(BOB, '/shared/', false))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.admitPatch(BOB, '/shared/doc'))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.delete(BOB, '/shared/doc', NO_PRECONDITIONS))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.read(PUBLIC, '/shared/doc'))).toEqual([401, 'unauthenticated'])
    // Access before existence: the public learns nothing of a missing name
    expect(await refusal(() => r.read(PUBLIC, '/shared/missing'))).toEqual([401, 'unauthenticated'])
    expect(await refusal(() => r.read(OWNER, '/shared/missing'))).toEqual([404, 'not_found'])
    expect(await getMeta(pod.store, '/shared/doc')).toBeDefined()
  })

  test('POST mints a member from the Slug; PATCH applies a patch; a failing If-Match is 412', async () => {
    const r = pod.deps.resources
    const posted = await r.commitPost(OWNER, '/shared/', await r.planPost(OWNER, '/shared/', false), turtle('<#x> <#y> <#z>.'), {
      slug: 'note',
      preconditions: NO_PRECONDITIONS,
    })
    expect(posted.path).toBe('/shared/note')
    await r.admitPatch(OWNER, '/shared/note')
    const patched = await r.patch(OWNER, '/shared/note', { mediaType: 'application/sparql-update', text: 'INSERT DATA { <#x> <#y> <#w> }' }, NO_PRECONDITIONS)
    expect(patched.result.created).toBe(false)
    expect(await refusal(() => r.delete(OWNER, '/shared/note', { ifMatch: '"stale"', ifNoneMatch: null }))).toEqual([412, 'precondition_failed'])
  })

  test("the pod's essentials hold for the owner too: 409 protected_resource for the WebID document, 405 for the root", async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.delete(OWNER, '/profile/card', NO_PRECONDITIONS))).toEqual([409, 'protected_resource'])
    expect(await refusal(() => r.planPut(OWNER, '/', facts))).toEqual([405, 'root_protected'])
    expect(await getMeta(pod.store, '/profile/card')).toBeDefined()
  })
  test("the pod's own endpoints are never written, whoever asks: 405 reserved_path for PUT and DELETE, before any decision", async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.planPut(OWNER, '/.admin/x', facts))).toEqual([405, 'reserved_path'])
    expect(await refusal(() => r.delete(OWNER, '/.well-known/x', NO_PRECONDITIONS))).toEqual([405, 'reserved_path'])
    expect(await refusal(() => r.delete(PUBLIC, '/.admin/x', NO_PRECONDITIONS))).toEqual([405, 'reserved_path'])
  })
})

describe("POST in one step, for a face that streams the body (a page's upload)", () => {
  const stream = (text: string) => new Blob([text]).stream()

  test('a file is stored under a name from the Slug, with its type; a name taken gets another', async () => {
    const r = pod.deps.resources
    const first = await r.post(OWNER, '/shared/', 'text/plain', stream('hello'), { slug: 'hello.txt', preconditions: NO_PRECONDITIONS })
    expect(first.path).toBe('/shared/hello.txt')
    expect(await getMeta(pod.store, first.path)).toMatchObject({ kind: 'binary', contentType: 'text/plain', size: 5 })
    const second = await r.post(OWNER, '/shared/', 'text/plain', stream('again'), { slug: 'hello.txt', preconditions: NO_PRECONDITIONS })
    expect(second.path).not.toBe(first.path)
  })

  test('a reader is refused 403 forbidden, the public 401 unauthenticated, as planPost refuses them', async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.post(BOB, '/shared/', 'text/plain', stream('no'), { slug: 'bob.txt', preconditions: NO_PRECONDITIONS }))).toEqual([
      403,
      'forbidden',
    ])
    expect(await refusal(() => r.post(PUBLIC, '/shared/', 'text/plain', stream('no'), { slug: 'x.txt', preconditions: NO_PRECONDITIONS }))).toEqual([
      401,
      'unauthenticated',
    ])
    expect(await getMeta(pod.store, '/shared/bob.txt')).toBeUndefined()
  })

  test("the pod's own endpoints are 405 reserved_path whoever asks, before access (as PUT's)", async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.planPost(PUBLIC, '/.well-known/', false))).toEqual([405, 'reserved_path'])
    expect(await refusal(() => r.post(OWNER, '/.admin/', 'text/plain', stream('no'), { slug: 'x.txt', preconditions: NO_PRECONDITIONS }))).toEqual([
      405,
      'reserved_path',
    ])
  })
})
