// An app that logs in again registers again (each login of a browser app does): the same metadata is the same
// client, so Apps and sessions shows it once, not once per login with a new random id.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CookieJar, VERIFIER, authorize, newDpopKey, openTestPod, tokenRequest, type DpopKey, type TestPod } from './op-fixture.ts'
import { listConsents } from '../../src/account/consents.ts'
import { listAppSessions } from '../../src/account/app-sessions.ts'
import { EARLIER_SECRETS } from '../../src/account/registered-clients.ts'

let pod: TestPod
let key: DpopKey
beforeAll(async () => {
  pod = await openTestPod()
  key = await newDpopKey()
})
afterAll(() => pod.close())

const A = 'https://again.example/cb'
const B = 'https://again.example/other'
const register = async (body: Record<string, unknown>) => {
  const res = await pod.request('/.oidc/reg', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status).toBe(201)
  return res.json()
}
const app = (more: Record<string, unknown> = {}) => ({
  redirect_uris: [A, B],
  client_name: 'Again',
  grant_types: ['authorization_code', 'refresh_token'],
  ...more,
})

/** One login of the app: authorization code, then tokens with its secret (a confidential client) or without. */
async function logIn(c: { client_id: string; client_secret?: string }) {
  const url = await authorize(pod, new CookieJar(), { client_id: c.client_id, redirect_uri: A })
  const code = url.searchParams.get('code')
  expect(code).toBeTruthy()
  const basic = c.client_secret ? `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString('base64')}` : undefined
  return tokenRequest(pod, {
    key,
    ...(basic ? { authorization: basic } : {}),
    fields: { grant_type: 'authorization_code', code: code!, redirect_uri: A, code_verifier: VERIFIER, ...(basic ? {} : { client_id: c.client_id }) },
  })
}

describe('RFC 7591 registration of metadata registered before', () => {
  test('a public client registering again gets its client id back, whatever the order of its redirect URIs', async () => {
    const first = await register(app({ token_endpoint_auth_method: 'none' }))
    const again = await register(app({ token_endpoint_auth_method: 'none', redirect_uris: [B, A] }))
    expect(again.client_id).toBe(first.client_id)
    expect(again.client_id_issued_at).toBe(first.client_id_issued_at)
    expect(again.client_secret).toBeUndefined()
  })

  test('another name, other redirect URIs, or other metadata: another client', async () => {
    const first = await register(app({ token_endpoint_auth_method: 'none' }))
    for (const other of [{ client_name: 'Another' }, { redirect_uris: [A] }, { logo_uri: 'https://again.example/logo.png' }]) {
      expect((await register(app({ token_endpoint_auth_method: 'none', ...other }))).client_id).not.toBe(first.client_id)
    }
  })

  test(`a confidential client gets its id back with a new secret; the ${EARLIER_SECRETS} before it still work, older ones not`, async () => {
    const regs = []
    for (let i = 0; i < EARLIER_SECRETS + 2; i++) regs.push(await register(app({ client_name: 'Confidential' })))
    expect(new Set(regs.map(r => r.client_id)).size).toBe(1)
    expect(new Set(regs.map(r => r.client_secret)).size).toBe(regs.length)
    const ok = await logIn(regs[regs.length - 1 - EARLIER_SECRETS])
    expect(ok.status).toBe(200)
    const tooOld = await logIn(regs[0])
    expect(tooOld.status).toBe(401)
    expect((await tooOld.json()).error).toBe('invalid_client')
  })

  test('registrations of the same metadata by anyone never retire a secret the app has logged in with', async () => {
    const meta = app({ client_name: 'In use' })
    const mine = await register(meta)
    expect((await logIn(mine)).status).toBe(200)
    // A stranger registers the app's metadata over and over: each gets a secret, never used
    const theirs = []
    for (let i = 0; i < EARLIER_SECRETS + 3; i++) theirs.push(await register(meta))
    expect(theirs.every(r => r.client_id === mine.client_id)).toBe(true)
    expect((await logIn(mine)).status).toBe(200)
    // The flood's own never-used secrets turn over as before
    const retired = await logIn(theirs[0])
    expect(retired.status).toBe(401)
    expect((await retired.json()).error).toBe('invalid_client')
  })
})

describe('two logins of one app', () => {
  test('registering at each login, the app is one entry in Apps and sessions', async () => {
    const meta = app({ client_name: 'Twice', token_endpoint_auth_method: 'none' })
    const first = await register(meta)
    expect((await logIn(first)).status).toBe(200)
    const second = await register(meta)
    expect((await logIn(second)).status).toBe(200)
    const now = pod.clock.now
    const consents = (await listConsents(pod.store, now)).filter(c => c.clientName === 'Twice')
    expect(consents.map(c => c.clientId)).toEqual([first.client_id])
    const sessions = (await listAppSessions(pod.store, now)).filter(s => s.clientName === 'Twice')
    expect(sessions).toHaveLength(2)
    expect(new Set(sessions.map(s => s.clientId))).toEqual(new Set([first.client_id]))
  })
})
