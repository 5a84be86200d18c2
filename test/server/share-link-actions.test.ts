// What the link actions tell (the CLI, also over the control socket): a link's facts and whether it has a password,
// never the password's hash, which stays in the store where only the link face reads it.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openTestPod, type TestPod } from '../op/op-fixture.ts'
import { shareLinkActions } from '../../src/server/share-link-actions.ts'
import { listShareLinks } from '../../src/account/share-links.ts'

let pod: TestPod
beforeAll(async () => {
  pod = await openTestPod()
})
afterAll(() => pod.close())

describe('solopod links: a password is told as a yes, never as its hash', () => {
  test('add and list answer hasPassword and no passwordHash, while the store keeps the argon2id hash', async () => {
    const actions = shareLinkActions(pod.deps.store, pod.deps.cfg.baseUrl, Date.now)
    const added = await actions.add({ path: '/profile/card', password: 'correct horse' })
    expect(added.link.hasPassword).toBe(true)
    expect(JSON.stringify(added)).not.toContain('argon2')
    const listed = await actions.list()
    expect(listed.map(l => l.hasPassword)).toEqual([true])
    expect(JSON.stringify(listed)).not.toContain('passwordHash')
    expect((await listShareLinks(pod.deps.store, Date.now()))[0]!.passwordHash).toStartWith('$argon2id$')
  })
})
