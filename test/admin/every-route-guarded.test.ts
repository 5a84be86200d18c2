// Every route of the owner's pages and API refuses a request without the owner's session: a guard option
// misspelled or left off a route would leave it open, and Elysia ignores an option it does not know.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { adminPlugin } from '../../src/admin/plugin.ts'
import { ADMIN_PATHS } from '../../src/http/pod-paths.ts'
import { openTestPod, type TestPod } from '../op/op-fixture.ts'

let pod: TestPod
beforeAll(async () => {
  pod = await openTestPod()
})
afterAll(() => pod.close())

/** What anyone may reach: the grant schema clients validate against, the dashboard's script, the setup page (its token decides). */
const PUBLIC = new Set<string>([ADMIN_PATHS.grantSchema, ADMIN_PATHS.dashboardScript, '/.admin/setup'])

const routes = () =>
  adminPlugin(pod.deps)
    .routes.filter(r => !PUBLIC.has(r.path))
    .map(r => ({ method: r.method, path: r.path.replace(/:[^/]+/g, 'x').replace(/\*$/, 'x') }))

describe('the owner guard', () => {
  test('the admin plugin has routes to check', () => {
    expect(routes().length).toBeGreaterThan(50)
  })

  test('no owner route answers without a session: a page sends to sign-in (303), a form or the API refuses (401/403)', async () => {
    const open: string[] = []
    for (const { method, path } of routes()) {
      const body = method === 'GET' || method === 'HEAD' ? undefined : 'csrf=x'
      const res = await pod.request(path, {
        method,
        body,
        headers: body ? { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3998' } : {},
      })
      await res.arrayBuffer()
      if (![303, 401, 403].includes(res.status)) open.push(`${method} ${path} → ${res.status}`)
      else if (res.status === 303) expect(res.headers.get('location') ?? '', `${method} ${path}`).toContain('/.oidc/login')
    }
    expect(open).toEqual([])
  })
})
