// Publishing and revoking a key from the owner's pages are ordinary writes of the operations layer
// (resources/owner-keys.ts): seen as any write is (new ETags, notifications to the channels on /keys/ and on the
// profile), and refused as a PUT of the same document by the owner would be.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { makeKey } from '../auth/httpsig/key-fixture.ts'
import type { Listener } from '../../src/channels/listener.ts'
import type { NotificationMessage } from '../../src/channels/notification-message.ts'

const BASE = 'http://localhost:4613'
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
})
afterAll(() => pod.close())

let serial = 0
/** A channel on `topic` as the notification role opens one, for the public (/keys/ and the profile are public). */
async function listen(topic: string) {
  const heard: NotificationMessage[] = []
  const id = `${BASE}/.notifications/WebSocketChannel2023/${(++serial).toString(16).padStart(32, '0')}`
  const listener: Listener = {
    id,
    type: 'WebSocketChannel2023',
    topic,
    since: Date.now(),
    holder: { client: 'test', owner: false },
    principal: { keys: [], scheme: 'anonymous' },
    features: { accept: 'application/ld+json' },
    send: message => {
      heard.push(message)
    },
    close() {},
  }
  await pod.deps.channels.open(listener)
  return { heard, end: () => pod.deps.channels.end(id, 'closed') }
}
/** The registry decides each change for each listener before sending it: wait for what is due. */
async function until(heard: readonly unknown[], n: number) {
  for (let i = 0; i < 100 && heard.length < n; i++) await Bun.sleep(10)
}
const etagOf = async (path: string) => (await pod.request(path)).headers.get('etag') ?? undefined
const create = (body: unknown) => pod.api('POST', '/.admin/api/keys', { body })

describe('a key published or revoked is seen as any write is', () => {
  test('publishing: /keys/ and the profile get new ETags, a channel on /keys/ hears Add, one on the profile hears Update', async () => {
    const keys = await listen('/keys/')
    const profile = await listen('/profile/card')
    try {
      const before = { keys: await etagOf('/keys/'), profile: await etagOf('/profile/card') }
      expect((await create({ name: 'seen', publicJwk: makeKey('ecdsa-p256-sha256').publicJwk, linkFromProfile: true })).status).toBe(201)
      const after = { keys: await etagOf('/keys/'), profile: await etagOf('/profile/card') }
      expect(after.keys).not.toBe(before.keys)
      expect(after.profile).not.toBe(before.profile)
      await until(keys.heard, 1)
      await until(profile.heard, 1)
      expect(keys.heard.map(n => [n.type, n.object, n.target])).toEqual([['Add', `${BASE}/keys/seen`, `${BASE}/keys/`]])
      expect(keys.heard[0]!.state).toBe(after.keys)
      expect(profile.heard.map(n => [n.type, n.object, n.state])).toEqual([['Update', `${BASE}/profile/card`, after.profile]])
    } finally {
      keys.end()
      profile.end()
    }
  })

  test('revoking: a channel on /keys/ hears Remove, one on the profile hears its link go', async () => {
    const keys = await listen('/keys/')
    const profile = await listen('/profile/card')
    try {
      expect((await pod.api('DELETE', '/.admin/api/keys/seen')).status).toBe(204)
      await until(keys.heard, 1)
      await until(profile.heard, 1)
      expect(keys.heard.map(n => [n.type, n.object])).toEqual([['Remove', `${BASE}/keys/seen`]])
      expect(profile.heard.map(n => [n.type, n.state])).toEqual([['Update', await etagOf('/profile/card')]])
    } finally {
      keys.end()
      profile.end()
    }
  })

  test('a key not linked from the profile leaves the profile as it was: no write, no notification', async () => {
    const profile = await listen('/profile/card')
    try {
      const before = await etagOf('/profile/card')
      expect((await create({ name: 'unlinked', publicJwk: makeKey('ed25519').publicJwk })).status).toBe(201)
      expect((await pod.api('DELETE', '/.admin/api/keys/unlinked')).status).toBe(204)
      await Bun.sleep(50)
      expect(await etagOf('/profile/card')).toBe(before)
      expect(profile.heard).toEqual([])
    } finally {
      profile.end()
    }
  })
})

describe('refused as the same PUT would be', () => {
  test('a name that is the ACL of a missing document → 409 acl_without_resource, nothing written', async () => {
    const res = await create({ name: 'missing.acl', publicJwk: makeKey('ecdsa-p256-sha256').publicJwk, linkFromProfile: true })
    expect(res.status).toBe(409)
    expect(await res.json()).toEqual({ error: 'acl_without_resource', error_description: '/keys/missing does not exist: create it before writing its ACL' })
    expect(await (await pod.request('/profile/card', { headers: { accept: 'application/n-triples' } })).text()).not.toContain('missing.acl')
  })

  test('a name that is the ACL of a published key → 422 invalid_acl: the key stays public and usable', async () => {
    expect((await create({ name: 'laptop', publicJwk: makeKey('ecdsa-p256-sha256').publicJwk })).status).toBe(201)
    const res = await create({ name: 'laptop.acl', publicJwk: makeKey('ecdsa-p256-sha256').publicJwk })
    expect(res.status).toBe(422)
    expect((await res.json()).error).toBe('invalid_acl')
    expect((await pod.request('/keys/laptop')).status).toBe(200)
  })
})
