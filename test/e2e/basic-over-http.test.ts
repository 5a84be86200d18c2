// RFC 7617 §4 over real HTTP: a pod served at a plain-http address that is not this machine's (behind a LAN name, say)
// refuses HTTP Basic before any password is read, so a mount never sends a client secret readable on the way.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'

let pod: RunningPod
const local = (path: string) => `http://127.0.0.1:${pod.port}${path}`

beforeAll(async () => {
  pod = await startPod({ baseHost: 'pod.example' })
})
afterAll(() => pod.stop())

describe('HTTP Basic on a plain-http pod at a network name', () => {
  test('PROPFIND with a client id and secret: 403 basic_over_http, with what to do instead', async () => {
    const res = await fetch(local('/'), { method: 'PROPFIND', headers: { depth: '0', authorization: `Basic ${btoa('script-x:secret')}` } })
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('basic_over_http')
  })

  test('GET with Basic: 403 basic_over_http too (the refusal comes before the password is looked up)', async () => {
    const res = await fetch(local('/profile/card'), { headers: { authorization: `Basic ${btoa('script-x:secret')}` } })
    expect(res.status).toBe(403)
    expect(await res.text()).toStartWith('basic_over_http:')
  })

  test('without Basic the pod answers as usual', async () => {
    expect((await fetch(local('/profile/card'))).status).toBe(200)
  })
})
