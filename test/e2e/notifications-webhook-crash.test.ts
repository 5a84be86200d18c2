// None lost across SIGKILL: every acknowledged write's webhook notification reaches the receiver after the pod is
// killed mid-burst and started again on the same data directory (at-least-once: a notification whose delivery was
// under way may come twice, with the same id). And a pod without --allow-insecure-local refuses a loopback sendTo.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { signInOwnerApp, subscribe, type OwnerApp } from './notify-client.ts'
import { eventually, startReceiver, verifyDelivery, type Receiver } from './webhook-receiver.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'

// RFC 9421 B.1.4 test-key-ed25519 and its did:key: an authenticated agent (webhooks are not for anonymous clients)
const ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }
const DID = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'

const N = 40

let pod: RunningPod
let owner: OwnerApp
let receiver: Receiver
beforeAll(async () => {
  receiver = startReceiver()
  pod = await startPod()
  owner = await signInOwnerApp(pod)
}, 60_000)
afterAll(async () => {
  owner?.stop()
  receiver?.stop()
  await pod?.dispose()
})

describe('durable outbox', () => {
  test(`${N} acknowledged writes, kill -9 before their deliveries, restart: the receiver gets all ${N}`, async () => {
    // a slow receiver: the pod is killed long before it has sent them all
    receiver.behave('/burst', async () => {
      await Bun.sleep(150)
      return undefined
    })
    const sub = await subscribe(pod, 'WebhookChannel2023', `${pod.baseUrl}/burst/`, { sendTo: `${receiver.base}/burst` }, owner.fetch)
    expect(sub.status).toBe(200)
    const written: string[] = []
    for (let i = 0; i < N; i++) {
      const path = `/burst/n${i}.ttl`
      const res = await owner.fetch(pod.baseUrl + path, {
        method: 'PUT',
        headers: { 'content-type': 'text/turtle' },
        body: `<#a> <http://example.org/n> ${i}.`,
      })
      expect(res.status).toBe(201)
      written.push(pod.baseUrl + path)
    }
    const beforeKill = receiver.attemptsAt('/burst')
    await pod.stop('SIGKILL')
    expect(beforeKill).toBeLessThan(N / 2)
    await pod.restart()
    // the first PUT made the container itself (a Create of the topic), then each member is an Add
    const adds = () => receiver.at('/burst').filter(d => d.json.type === 'Add')
    await eventually(() => new Set(adds().map(d => d.json.object)).size === N, `all ${N} Add notifications`, 30_000)
    expect(receiver.at('/burst')[0]!.json).toMatchObject({ type: 'Create', object: `${pod.baseUrl}/burst/` })
    const got = adds()
    expect([...new Set(got.map(d => d.json.object))].sort()).toEqual([...written].sort())
    expect(got.every(d => d.json.target === `${pod.baseUrl}/burst/`)).toBe(true)
    // at-least-once: a repeat carries the id of the first
    expect(new Set(got.map(d => d.json.id)).size).toBe(N)
    // in the order written
    const firsts = got.filter((d, i) => got.findIndex(e => e.json.id === d.json.id) === i).map(d => d.json.object)
    expect(firsts).toEqual(written)
    expect((await verifyDelivery(got.at(-1)!)).verified).toBe(true)
  }, 60_000)
})

describe('without --allow-insecure-local', () => {
  test('loopback sendTo (::1, 127.0.0.1, localhost) → 400 unsafe_send_to', async () => {
    const strict = await startPod({ extraArgs: ['--allow-insecure-local=false'] })
    try {
      // the profile is public: a did:key agent (it needs no fetch, which this pod would refuse on loopback) may
      // subscribe to it, and its sendTo is what is refused
      for (const sendTo of ['https://[::1]:8443/hook', 'https://127.0.0.1:8443/hook', 'https://localhost:8443/hook']) {
        const target = `${strict.baseUrl}/.notifications/WebhookChannel2023/`
        const body = JSON.stringify({ type: 'WebhookChannel2023', topic: `${strict.baseUrl}/profile/card`, sendTo })
        const headers = await signedHeaders(target, {
          key: privateKeyOf(ED25519),
          alg: 'ed25519',
          keyid: DID,
          method: 'POST',
          body,
          headers: { 'content-type': 'application/ld+json' },
        })
        const res = await fetch(target, { method: 'POST', headers, body })
        const text = await res.text()
        expect([res.status, text.split(':', 1)[0]], sendTo).toEqual([400, 'unsafe_send_to'])
        expect(text).toContain('loopback')
      }
    } finally {
      await strict.dispose()
    }
  }, 30_000)
})
