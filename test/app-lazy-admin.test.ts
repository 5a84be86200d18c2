// Issue 41: the owner's pages and API are loaded and built with the first request under /.admin (src/app.ts).
// That request waits for them; should loading fail, it is a logged 500, never a request left waiting, and the
// next request tries again.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { buildApp, makeRequestHandler } from '../src/app.ts'
import type { Pod } from '../src/pod.ts'
import { openTempPod } from './temp-pod.ts'

const BASE = 'http://localhost:3996'
let pod: Pod
beforeAll(async () => {
  pod = await openTempPod('lazy-admin', BASE)
})
afterAll(() => pod.close())

const dashboard = () => new Request(`${BASE}/.admin/`, { headers: { host: 'localhost:3996' } })

describe('the owner pages, loaded on first use', () => {
  test('the first request under /.admin builds them and is answered as always', async () => {
    const handle = makeRequestHandler(buildApp(pod.deps), pod.deps)
    const res = await handle(dashboard())
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`${BASE}/.oidc/login?return=/.admin/`)
  })

  test('a load that fails is a 500 server_error for that request, and the next request loads again', async () => {
    const real = (await import('../src/admin/plugin.ts')).adminPlugin
    let loads = 0
    const handle = makeRequestHandler(
      buildApp(pod.deps, async () => {
        if (++loads === 1) throw new Error('the chunk is missing')
        return real
      }),
      pod.deps,
    )
    const failed = await handle(dashboard())
    expect(failed.status).toBe(500)
    const body = await failed.text()
    expect(body).toStartWith('server_error:')
    expect(body).not.toContain('the chunk is missing')
    // The rest of the pod does not wait for the owner pages
    expect((await handle(new Request(`${BASE}/.well-known/openid-configuration`))).status).toBe(200)
    expect((await handle(dashboard())).status).toBe(303)
    expect(loads).toBe(2)
  })
})
