import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'
import {
  createLoginSession,
  endLoginSession,
  getLoginSession,
  listLoginSessions,
  LOGIN_SESSION_TTL_MS,
  revokeLoginSession,
} from '../../src/account/owner-session.ts'
import type { WebId } from '../../src/account/ids.ts'

const T0 = 1_800_000_000_000
const WEBID = 'https://pod.example/profile/card#me' as WebId
let dir: string
let store: Store
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'solopod-sess-'))
  store = await openStore(dir)
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

const cookieOf = (setCookie: string) => setCookie.split(';')[0]!

describe("the owner's login sessions", () => {
  test('over http: an HttpOnly, SameSite=Lax cookie without Secure', async () => {
    const { setCookie } = await createLoginSession(store, 'http://localhost:3000', WEBID, null, T0)
    expect(setCookie).toMatch(/^solopod_session=[\w-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/)
  })
  test('under https: a __Host- cookie with Secure', async () => {
    const { setCookie } = await createLoginSession(store, 'https://pod.example', WEBID, null, T0)
    expect(setCookie).toStartWith('__Host-solopod_session=')
    expect(setCookie).toEndWith('SameSite=Lax; Secure')
    expect(await getLoginSession(store, 'https://pod.example', cookieOf(setCookie), T0)).toMatchObject({ webid: WEBID })
    // the plain name is not accepted under https (a sibling host could plant it)
    expect(await getLoginSession(store, 'https://pod.example', cookieOf(setCookie).replace('__Host-', ''), T0)).toBeUndefined()
  })
  test('only the hash of the cookie is stored', async () => {
    const { setCookie } = await createLoginSession(store, 'http://localhost:3000', WEBID, null, T0)
    const secret = cookieOf(setCookie).split('=')[1]!
    for await (const [k, v] of store.records.iterator()) expect(k + JSON.stringify(v)).not.toContain(secret)
  })
  test('expire after 14 days', async () => {
    const { setCookie } = await createLoginSession(
      store,
      'http://localhost:3000',
      WEBID,
      'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0',
      T0,
    )
    expect(await getLoginSession(store, 'http://localhost:3000', cookieOf(setCookie), T0 + LOGIN_SESSION_TTL_MS - 1)).toMatchObject({
      userAgent: 'Firefox on Linux',
    })
    expect(await getLoginSession(store, 'http://localhost:3000', cookieOf(setCookie), T0 + LOGIN_SESSION_TTL_MS)).toBeUndefined()
  })
  test('end (logout) and revoke (by public id) remove the session', async () => {
    const a = await createLoginSession(store, 'http://localhost:3000', WEBID, null, T0)
    const clear = await endLoginSession(store, 'http://localhost:3000', cookieOf(a.setCookie))
    expect(clear).toContain('Max-Age=0')
    expect(await getLoginSession(store, 'http://localhost:3000', cookieOf(a.setCookie), T0)).toBeUndefined()
    const b = await createLoginSession(store, 'http://localhost:3000', WEBID, null, T0)
    expect((await listLoginSessions(store, T0)).map(s => s.id)).toContain(b.session.id)
    expect(b.session.id).not.toBe(cookieOf(b.setCookie).split('=')[1])
    expect(await revokeLoginSession(store, b.session.id, T0)).toBe(true)
    expect(await getLoginSession(store, 'http://localhost:3000', cookieOf(b.setCookie), T0)).toBeUndefined()
    expect(await revokeLoginSession(store, b.session.id, T0)).toBe(false)
  })
})
