// CORS with credentials only where apps need it: the owner's pages and the OP's HTML pages are same-origin only.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openPod, type Pod } from '../rs/pod-fixture.ts'

let pod: Pod
beforeAll(async () => {
  pod = await openPod()
})
afterAll(() => pod.close())

// A same-site origin: another port on localhost could read the owner's pages with the owner's cookie.
const ORIGIN = 'http://localhost:4000'
const noCors = (res: Response) => [...res.headers.keys()].filter(h => h.startsWith('access-control-'))

describe("Fetch §3.2 CORS: none on the owner's pages and the OP's HTML pages", () => {
  test.each([
    ['GET', '/.admin/sessions'],
    ['GET', '/.admin/api/sessions'],
    ['GET', '/.admin/api/csrf'],
    ['DELETE', '/.admin/api/sessions/x'],
    ['GET', '/.admin/setup?token=x'],
    ['GET', '/.oidc/auth?client_id=x'],
    ['GET', '/.oidc/login'],
    ['GET', '/.oidc/consent?interaction=x'],
    ['GET', '/.oidc/session/end'],
  ])('%s %s answers without Access-Control-Allow-* headers', async (method, path) => {
    const res = await pod.request(path, { method, headers: { origin: ORIGIN, cookie: 'x=y' } })
    expect(noCors(res)).toEqual([])
  })

  test.each(['/.admin/api/sessions', '/.oidc/login'])('a preflight to %s is not granted', async path => {
    const res = await pod.request(path, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } })
    expect(noCors(res)).toEqual([])
  })
})

describe('Solid Protocol §8.1: CORS stays where apps call the pod', () => {
  test.each([
    ['GET', '/'],
    ['GET', '/profile/card'],
    ['GET', '/.well-known/openid-configuration'],
    ['GET', '/.oidc/jwks'],
    ['POST', '/.oidc/token'],
    ['POST', '/.oidc/reg'],
    ['GET', '/.oidc/userinfo'],
    ['GET', '/.admin/schemas/grant-data.json'],
  ])('%s %s echoes the Origin with credentials', async (method, path) => {
    const res = await pod.request(path, { method, headers: { origin: ORIGIN } })
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
  })

  test('a preflight to a pod resource is granted', async () => {
    const res = await pod.request('/profile/card', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'PUT' } })
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  })
})
