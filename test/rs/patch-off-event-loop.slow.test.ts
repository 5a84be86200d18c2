// A PATCH cannot stall the pod: its parse runs off the event loop, so cheap requests are answered
// meanwhile (seconds of parsing: in the full suite, not the unit tier).

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, seedTurtle, type Pod } from './pod-fixture.ts'
import { publicAcl } from '../e2e/seed-store.ts'
import { withBody } from './rs-helpers.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod({ publicWrite: ['/pub/'] })
  await seedTurtle(pod.store, pod.base, '/read/', '')
  await seedTurtle(pod.store, pod.base, '/read/.acl', publicAcl(`${pod.base}/read/`, ['Read']))
  await seedTurtle(pod.store, pod.base, '/read/doc', '<#a> <#b> <#c>.')
})
afterAll(() => pod.close())

const SPARQL = 'application/sparql-update'

describe('PATCH: the parse runs off the event loop', () => {
  test('cheap requests are answered while a large patch is being parsed', async () => {
    // ~1 MiB of one repeated triple: a long parse, then a one-triple write
    const body = `INSERT DATA {\n${'<#s> <#p> "a repeated value of some length" .\n'.repeat(20_000)}}`
    let patchDone = false
    const patch = pod.request('/pub/parsed', withBody('PATCH', SPARQL, body)).then(r => {
      patchDone = true
      return r
    })
    let answeredMeanwhile = 0
    const deadline = Date.now() + 80_000
    while (!patchDone) {
      // requests arrive as separate tasks, as from a socket (a cached GET alone never leaves the microtask queue)
      await Bun.sleep(1)
      const res = await pod.request('/read/doc')
      expect(res.status).toBe(200)
      await res.text()
      if (!patchDone) answeredMeanwhile++
      if (Date.now() > deadline) throw new Error('the PATCH did not finish')
    }
    expect((await patch).status).toBe(201)
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(10)
  }, 90_000) // a shared 2-core machine can make the parse itself take seconds
})
