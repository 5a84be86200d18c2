// The profile form's Save (POST /.admin/api/profile) keeps the statements the pod needs in the WebID
// document, and puts back those a pod damaged before the resource server's checks had lost.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { openOwnerPod, type OwnerPod } from './admin-fixture.ts'
import { hasTriple, parseTurtle } from '../rs/rs-helpers.ts'

const BASE = 'http://localhost:3971'
const WEBID = `${BASE}/profile/card#me`
const ISSUER = 'http://www.w3.org/ns/solid/terms#oidcIssuer'
const STORAGE = 'http://www.w3.org/ns/pim/space#storage'
let pod: OwnerPod
beforeAll(async () => {
  pod = await openOwnerPod(BASE)
})
afterAll(() => pod.close())

const publicCard = async () => {
  const res = await pod.request('/profile/card', { headers: { accept: 'text/turtle' } })
  expect(res.status).toBe(200)
  return parseTurtle(await res.text(), `${BASE}/profile/card`)
}

describe('Profile → Save', () => {
  test('keeps solid:oidcIssuer and pim:storage when it changes the name', async () => {
    const res = await pod.api('POST', '/.admin/api/profile', { body: { fields: { name: 'Ada' } } })
    expect(res.status).toBe(200)
    const card = await publicCard()
    expect([hasTriple(card, WEBID, ISSUER, BASE), hasTriple(card, WEBID, STORAGE, `${BASE}/`)]).toEqual([true, true])
  })

  test('puts back the statements a damaged card lost (written straight into the store)', async () => {
    await pod.seed('/profile/card', '<#me> <http://xmlns.com/foaf/0.1/name> "Ada".')
    const res = await pod.api('POST', '/.admin/api/profile', { body: { fields: { name: 'Ada Lovelace' } } })
    expect(res.status).toBe(200)
    expect((await res.json()).changed).toBe(true)
    const card = await publicCard()
    expect([hasTriple(card, WEBID, ISSUER, BASE), hasTriple(card, WEBID, STORAGE, `${BASE}/`)]).toEqual([true, true])
    expect(card.some(q => q.object.value === 'Ada Lovelace')).toBe(true)
  })

  test('with nothing to change and nothing missing, nothing is written', async () => {
    const res = await pod.api('POST', '/.admin/api/profile', { body: { fields: { name: 'Ada Lovelace' } } })
    expect((await res.json()).changed).toBe(false)
  })
})
