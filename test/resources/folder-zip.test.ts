// A folder as one zip (resources/folder-zip.ts): Read on the folder decided first, as for its listing (401, 403,
// 404 only to a reader, 400 for what is no folder); inside, what the principal may not read is left out, never an
// error; ACL documents never go in; names as people read them; a folder over the limits refused before a byte.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ANONYMOUS } from '../../src/auth/principal.ts'
import { ownerSessionPrincipal } from '../../src/auth/owner-cookie.ts'
import { makeFolderZip } from '../../src/resources/folder-zip.ts'
import { makeAccessControl } from '../../src/policy/access-control.ts'
import { makeReadResource } from '../../src/resources/read-resource.ts'
import { refusal } from './refusal.ts'
import { unzipEntries } from '../unzip.ts'
import { agent, BASE, openAccessPod, type AccessPod } from '../policy/access-fixture.ts'

const OWNER = { principal: ownerSessionPrincipal(BASE) }
const CAROL = { principal: agent('https://carol.example/profile#me') }
const PUBLIC = { principal: ANONYMOUS }
const rule = (name: string, who: string, modes: string) =>
  `<#${name}> a acl:Authorization; acl:agent <${who}>; acl:accessTo <./>; acl:default <./>; acl:mode ${modes}.\n`
const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes))

let pod: AccessPod
const zipOf = async (run: Promise<ReadableStream<Uint8Array>>) => unzipEntries(new Uint8Array(await new Response(await run).arrayBuffer()))

beforeAll(async () => {
  pod = await openAccessPod()
  const put = (path: string, body: string) => pod.deps.resources.put(OWNER, path, 'text/plain', body)
  await put('/team/open.txt', 'open')
  await put('/team/%C3%89t%C3%A9%20%231.txt', 'summer')
  await put('/team/mid/x.txt', 'x')
  await put('/team/private/z.txt', 'secret')
  await pod.seed('/team/notes', '<#it> foaf:name "Notes".')
  // Carol may read /team/ but not /team/private/, whose own ACL names only the owner
  const owner = rule('owner', `${BASE}/profile/card#me`, 'acl:Read, acl:Write, acl:Control')
  await pod.seed('/team/.acl', owner + rule('carol', CAROL.principal.webid!, 'acl:Read'))
  await pod.seed('/team/private/.acl', owner)
  // and not /team/mine.txt, whose own ACL names only the owner
  await put('/team/mine.txt', 'mine')
  await pod.seed(
    '/team/mine.txt.acl',
    rule('owner', `${BASE}/profile/card#me`, 'acl:Read, acl:Write, acl:Control').replace('; acl:default <./>', '').replaceAll('<./>', '<mine.txt>'),
  )
})
afterAll(() => pod.close())

describe('what goes in', () => {
  test('a reader gets every item it may read, names decoded; a folder or file it may not read is left out, and no ACL', async () => {
    const entries = await zipOf(pod.deps.resources.zip(CAROL, '/team/'))
    expect([...entries.keys()].sort()).toEqual(['mid/', 'mid/x.txt', 'notes', 'open.txt', 'Été #1.txt'].sort())
    expect(text(entries.get('Été #1.txt'))).toBe('summer')
    expect(text(entries.get('notes'))).toContain('"Notes"')
  })

  test('the owner gets the private folder too, still no ACL', async () => {
    const entries = await zipOf(pod.deps.resources.zip(OWNER, '/team/'))
    expect(text(entries.get('private/z.txt'))).toBe('secret')
    expect(text(entries.get('mine.txt'))).toBe('mine')
    expect([...entries.keys()].filter(n => n.endsWith('.acl'))).toEqual([])
  })

  test('only some members: those, with everything in them', async () => {
    const entries = await zipOf(pod.deps.resources.zip(OWNER, '/team/', { only: ['/team/mid/', '/team/open.txt'] }))
    expect([...entries.keys()].sort()).toEqual(['mid/', 'mid/x.txt', 'open.txt'])
  })

  test('ended between members by what `stillAllowed` throws', async () => {
    let asked = 0
    const stream = await pod.deps.resources.zip(OWNER, '/team/', {
      stillAllowed: async () => {
        if (++asked === 3) throw new Error('the link was removed')
      },
    })
    await expect(new Response(stream).arrayBuffer()).rejects.toThrow('the link was removed')
  })
})

describe('refusals', () => {
  test('Read on the folder first: 403 forbidden to an agent, 401 to the public, 404 only to a reader', async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.zip(CAROL, '/team/private/'))).toEqual([403, 'forbidden'])
    expect(await refusal(() => r.zip(PUBLIC, '/team/'))).toEqual([401, 'unauthenticated'])
    expect(await refusal(() => r.zip(PUBLIC, '/missing/'))).toEqual([401, 'unauthenticated'])
    expect(await refusal(() => r.zip(OWNER, '/missing/'))).toEqual([404, 'not_found'])
  })

  test('a path that is no folder: 400 not_a_container; a member that is not inside it: 400 invalid_request', async () => {
    const r = pod.deps.resources
    expect(await refusal(() => r.zip(OWNER, '/team/open.txt'))).toEqual([400, 'not_a_container'])
    expect(await refusal(() => r.zip(OWNER, '/team/', { only: ['/team/mid/x.txt'] }))).toEqual([400, 'invalid_request'])
    expect(await refusal(() => r.zip(OWNER, '/team/', { only: ['/other/'] }))).toEqual([400, 'invalid_request'])
  })

  test('more items, or folders deeper, than the limits: 413 too_large_for_zip, before anything is sent', async () => {
    const d = pod.deps
    const layerDeps = { ...d, access: makeAccessControl({ decider: d.decider, tickets: d.tickets, cfg: d.cfg }) }
    const zip = (items: number, depth: number) => makeFolderZip(layerDeps, makeReadResource(layerDeps), { items, depth })
    expect(await refusal(() => zip(4, 8)(OWNER, '/team/'))).toEqual([413, 'too_large_for_zip'])
    expect(await refusal(() => zip(100, 1)(OWNER, '/team/'))).toEqual([413, 'too_large_for_zip'])
    expect((await zipOf(zip(8, 2)(OWNER, '/team/'))).size).toBe(8)
  })
})
