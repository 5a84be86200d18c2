// The Updates-Via capability of the legacy solid-0.1 socket, with the pod's clock in the test's hand: it names its
// reader for 24 h and then nobody, is handed out again while young, cannot be altered, and outlives a restart.

import { afterEach, describe, expect, test } from 'bun:test'
import { openTempPod } from '../temp-pod.ts'
import type { Pod } from '../../src/pod.ts'
import type { ClientId, WebId } from '../../src/account/ids.ts'
import { CAPABILITY_LIFETIME_MS, makeLegacyCapabilities } from '../../src/channels/legacy-capability.ts'
import type { ListenerPrincipal } from '../../src/channels/listener.ts'

const BASE = 'http://localhost:4712'
const OWNER: ListenerPrincipal = { webid: `${BASE}/profile/card#me` as WebId, clientId: 'https://app.example/id' as ClientId, keys: ['jkt-1'], scheme: 'DPoP' }

let pod: Pod | undefined
afterEach(async () => {
  await pod?.close()
  pod = undefined
})

async function capabilitiesAt() {
  let clock = Date.now()
  pod = await openTempPod('legacy-capability', BASE)
  const caps = makeLegacyCapabilities({ store: pod.store, baseUrl: BASE, now: () => clock })
  return {
    caps,
    advance: (ms: number) => {
      clock += ms
    },
  }
}
const authOf = (url: string) => new URL(url).searchParams.get('auth')

describe('lifetime', () => {
  test('names its reader until 24 h have passed, and nobody from then on', async () => {
    const { caps, advance } = await capabilitiesAt()
    const auth = authOf(await caps.updatesViaFor(OWNER))
    expect(await caps.principalOf(auth)).toEqual(OWNER)
    advance(CAPABILITY_LIFETIME_MS - 1)
    expect(await caps.principalOf(auth)).toEqual(OWNER)
    advance(1)
    expect(await caps.principalOf(auth)).toBeUndefined()
  })

  test('the same reader gets the same URL for 12 h, then a new one that lives 24 h from then', async () => {
    const { caps, advance } = await capabilitiesAt()
    const first = await caps.updatesViaFor(OWNER)
    advance(CAPABILITY_LIFETIME_MS / 2 - 1)
    expect(await caps.updatesViaFor(OWNER)).toBe(first)
    advance(1)
    const second = await caps.updatesViaFor(OWNER)
    expect(second).not.toBe(first)
    advance(CAPABILITY_LIFETIME_MS / 2)
    expect(await caps.principalOf(authOf(first))).toBeUndefined()
    expect(await caps.principalOf(authOf(second))).toEqual(OWNER)
  })
})

describe('who it names', () => {
  test('an anonymous reader gets the plain socket URL', async () => {
    const { caps } = await capabilitiesAt()
    expect(await caps.updatesViaFor({ keys: [], scheme: 'anonymous' })).toBe('ws://localhost:4712/.notifications/solid-0.1')
    expect(caps.anonymousUrl).toBe('ws://localhost:4712/.notifications/solid-0.1')
  })

  test('another reader named in the payload, under the same MAC, names nobody', async () => {
    const { caps } = await capabilitiesAt()
    const [payload, mac] = authOf(await caps.updatesViaFor(OWNER))!.split('.')
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString())
    const swapped = Buffer.from(JSON.stringify({ ...claims, p: { ...claims.p, webid: 'https://mallory.example/#me' } })).toString('base64url')
    const extended = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + CAPABILITY_LIFETIME_MS })).toString('base64url')
    for (const forged of [`${swapped}.${mac}`, `${extended}.${mac}`, `${payload}.`, `${payload}.${mac}.x`, '', null]) {
      expect(await caps.principalOf(forged)).toBeUndefined()
    }
  })

  test("the key is the pod's, kept across a restart: another pod's capability names nobody here", async () => {
    const { caps } = await capabilitiesAt()
    const auth = authOf(await caps.updatesViaFor(OWNER))
    expect(await makeLegacyCapabilities({ store: pod!.store, baseUrl: BASE, now: Date.now }).principalOf(auth)).toEqual(OWNER)
    const other = await openTempPod('legacy-capability-other', BASE)
    try {
      expect(await makeLegacyCapabilities({ store: other.store, baseUrl: BASE, now: Date.now }).principalOf(auth)).toBeUndefined()
    } finally {
      await other.close()
    }
  })
})
