// A copy of a folder with everything in it (resources/copy-tree.ts, the dashboard's Copy to… and a WebDAV COPY): made
// anew member by member for the principal, what it may not read left out and answered, never an ACL, never into itself.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { getMeta } from '../../src/store/resources.ts'
import { NO_PRECONDITIONS, type Preconditions } from '../../src/resources/preconditions.ts'
import { encodeSegment } from '../../src/store/target.ts'
import { refusal } from './refusal.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = { principal: ownerSessionPrincipal(BASE) }
const CAROL = { principal: agent('https://carol.example/profile#me') }
const CREATE_ONLY: Preconditions = { ifMatch: null, ifNoneMatch: '*' }
/** A folder whose name holds what paths get wrong: a space, accents, #, ?, % and +. */
const ODD = `/tree/${encodeSegment('Été 2026 #1 ?50% a+b')}/`
const FILE = encodeSegment('rapport final #2 100%+?.txt')

let pod: AccessPod
const kindAt = async (path: string) => (await getMeta(pod.store, path))?.kind

beforeAll(async () => {
  pod = await openAccessPod()
  // Carol may read and write /tree/, but not its folder private/, which is the owner's alone
  await pod.seed(
    '/tree/.acl',
    `<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#carol> a acl:Authorization; acl:agent <${CAROL.principal.webid}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write.`,
  )
  await pod.deps.resources.put(OWNER, `${ODD}${FILE}`, 'text/plain', 'bonjour')
  await pod.deps.resources.put(OWNER, `${ODD}sub/notes`, 'text/turtle', '<#it> <http://xmlns.com/foaf/0.1/name> "Notes été".')
  await pod.deps.resources.put(OWNER, `${ODD}private/secret.txt`, 'text/plain', 'secret')
  await pod.seed(
    `${ODD}private/.acl`,
    `<#owner> a acl:Authorization; acl:agent <${BASE}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`,
  )
})
afterAll(() => pod.close())

describe('a folder with everything in it', () => {
  test('the owner copies every member, with its kind and content; the ACL inside is not copied', async () => {
    const failed = await pod.deps.resources.copyTree(OWNER, ODD, '/tree/all/', { deep: true, preconditions: CREATE_ONLY })
    expect(failed).toEqual([])
    expect(await kindAt('/tree/all/')).toBe('container')
    expect(await kindAt(`/tree/all/${FILE}`)).toBe('binary')
    expect(await kindAt('/tree/all/sub/notes')).toBe('rdf')
    expect(await kindAt('/tree/all/private/secret.txt')).toBe('binary')
    expect(await kindAt(`${ODD}private/.acl`)).toBe('rdf')
    expect(await kindAt('/tree/all/private/.acl')).toBeUndefined()
    // The source stays as it was
    expect(await kindAt(`${ODD}${FILE}`)).toBe('binary')
  })

  test('a member the principal may not read is left out and answered (403 forbidden); the rest is copied', async () => {
    const failed = await pod.deps.resources.copyTree(CAROL, ODD, '/tree/carol/', { deep: true, preconditions: CREATE_ONLY })
    expect(failed.map(f => [f.path, f.status, f.code])).toEqual([[`${ODD}private/`, 403, 'forbidden']])
    expect(await kindAt(`/tree/carol/${FILE}`)).toBe('binary')
    expect(await kindAt('/tree/carol/sub/notes')).toBe('rdf')
    expect(await kindAt('/tree/carol/private/')).toBeUndefined()
  })

  test('not deep (a WebDAV COPY of Depth 0): the folder alone', async () => {
    expect(await pod.deps.resources.copyTree(OWNER, ODD, '/tree/alone/', { deep: false, preconditions: NO_PRECONDITIONS })).toEqual([])
    expect(await kindAt('/tree/alone/')).toBe('container')
    expect(await kindAt(`/tree/alone/${FILE}`)).toBeUndefined()
  })

  test.each([
    ['itself', ODD],
    ['a folder inside it', `${ODD}sub/deeper/`],
  ])('into %s → 400 copy_into_itself, nothing made', async (_, to) => {
    expect(await refusal(() => pod.deps.resources.copyTree(OWNER, ODD, to, { deep: true, preconditions: CREATE_ONLY }))).toEqual([400, 'copy_into_itself'])
    expect(await kindAt(`${ODD}sub/deeper/`)).toBeUndefined()
    expect(await kindAt(`${ODD}${encodeSegment('Été 2026 #1 ?50% a+b')}/`)).toBeUndefined()
  })

  test('onto a name taken, never replacing: 412, what was there kept', async () => {
    expect(await refusal(() => pod.deps.resources.copyTree(OWNER, `${ODD}${FILE}`, `/tree/all/sub/notes`, { deep: true, preconditions: CREATE_ONLY }))).toEqual(
      [412, 'precondition_failed'],
    )
    expect(await kindAt('/tree/all/sub/notes')).toBe('rdf')
  })
})
