// The decider's caches follow the store's change feed (policy/access-decider.ts): whatever writes, through
// whichever face, the next decision sees the new ACLs, with no caller telling the decider. Here every write
// goes straight to the store's own functions, and nobody calls the decider in between.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { moveResource } from '../../src/store/move-resource.ts'
import { restoreFromTrash, trashResource } from '../../src/store/trash.ts'
import { deleteTree } from '../../src/store/delete-tree.ts'
import { deleteResource } from '../../src/store/resources.ts'
import { agent, BASE, decide, openAccessPod, type AccessPod } from './access-fixture.ts'

const BOB = agent('https://bob.example/profile#me')
const get = (path: string) => ({ method: 'GET', path })
const bobReads = async (path: string) => (await decide(pod.access, BOB, get(path))).status

let pod: AccessPod
beforeAll(async () => {
  pod = await openAccessPod()
  await pod.seed('/shared/doc', '')
  await pod.seed('/shared/.acl', `[] a acl:Authorization; acl:accessTo <./>; acl:default <./>; acl:agent <${BOB.webid}>; acl:mode acl:Read.`)
})
afterAll(() => pod.close())

describe('the decider hears every write of the store', () => {
  test('a move: the ACL is gone from the old name and found at the new one', async () => {
    expect(await bobReads('/shared/doc')).toBe(200)
    expect(await bobReads('/moved/doc')).toBe(403) // caches that /moved/.acl does not exist
    await moveResource(pod.store, BASE, '/shared/', '/moved/', Date.now())
    expect(await bobReads('/moved/doc')).toBe(200)
    await pod.seed('/shared/doc', '')
    expect(await bobReads('/shared/doc')).toBe(403)
  })

  test('trash and restore: the ACL goes into the trash and comes back with its folder', async () => {
    const { item } = await trashResource(pod.store, BASE, '/moved/', Date.now())
    await pod.seed('/moved/doc', '')
    expect(await bobReads('/moved/doc')).toBe(403)
    await deleteTree(pod.store, BASE, '/moved/', Date.now())
    await restoreFromTrash(pod.store, BASE, item.id, Date.now())
    expect(await bobReads('/moved/doc')).toBe(200)
  })

  test('a folder deleted with everything in it, then made again without an ACL', async () => {
    await deleteTree(pod.store, BASE, '/moved/', Date.now())
    await pod.seed('/moved/doc', '')
    expect(await bobReads('/moved/doc')).toBe(403)
  })

  test('a single DELETE takes the ACL with its resource', async () => {
    await pod.seed('/single', '')
    await pod.seed('/single.acl', `[] a acl:Authorization; acl:accessTo <single>; acl:agent <${BOB.webid}>; acl:mode acl:Read.`)
    expect(await bobReads('/single')).toBe(200)
    await deleteResource(pod.store, BASE, '/single', Date.now())
    await pod.seed('/single', '')
    expect(await bobReads('/single')).toBe(403)
  })
})
