// Documents the pod reads on behalf of a request (WebID profiles, Client ID Documents, groups) are
// read as the public would see them, and refusals say nothing about a document the requester cannot read.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SignJWT } from 'jose'
import { writeResource } from '../../src/store/resources.ts'
import { loadLocalDocument } from '../../src/local-documents.ts'
import { makePublicView } from '../../src/policy/public-view.ts'
import { writeTurtle, publicAcl } from '../e2e/seed-store.ts'
import { BASE, CONTEXT, dpopProof, newDpopKey, openTestPod, pageError, type DpopKey, type TestPod } from '../op/op-fixture.ts'
import { binaryContent } from '../store/binary-content.ts'

let pod: TestPod
let key: DpopKey
const SECRET_ISSUER = 'https://secret-issuer.example'

beforeAll(async () => {
  pod = await openTestPod()
  key = await newDpopKey()
  const now = pod.clock.now
  await writeTurtle(pod.store, BASE, '/private/secret.ttl', `<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${SECRET_ISSUER}>.`, now)
  const pdf = new TextEncoder().encode('%PDF-1.4 private')
  await writeResource(pod.store, BASE, '/private/bin.pdf', await binaryContent(pod.store, 'application/pdf', pdf), now)
  const app = new TextEncoder().encode(
    JSON.stringify({ '@context': [CONTEXT], client_id: `${BASE}/private/app.jsonld`, redirect_uris: ['https://app.example/callback'] }),
  )
  await writeResource(pod.store, BASE, '/private/app.jsonld', await binaryContent(pod.store, 'application/ld+json', app), now)
  await writeTurtle(pod.store, BASE, '/public/', '', now)
  await writeTurtle(pod.store, BASE, '/public/.acl', publicAcl(`${BASE}/public/`, ['Read']), now)
  await writeResource(pod.store, BASE, '/public/big.json', await binaryContent(pod.store, 'application/json', `"${'x'.repeat(1024 * 1024)}"`), now)
  await writeResource(pod.store, BASE, '/public/small.json', await binaryContent(pod.store, 'application/json', '{"small":true}'), now)
  await writeTurtle(pod.store, BASE, '/public/me.ttl', `<#me> <http://www.w3.org/ns/solid/terms#oidcIssuer> <${SECRET_ISSUER}>.`, now)
})
afterAll(() => pod.close())

describe('the pod reads its own documents as the public would (WAC for the anonymous agent)', () => {
  test('a public document is read', async () => {
    const doc = await loadLocalDocument(pod.store, BASE, `${BASE}/profile/card`, 'text/turtle', pod.clock.now, makePublicView(pod.deps.decider, BASE))
    expect(doc?.body).toContain('oidcIssuer')
  })
  test('a public file is read whole; one larger than any document the pod reads is not read at all', async () => {
    const read = (path: string) => loadLocalDocument(pod.store, BASE, BASE + path, 'application/json', pod.clock.now, makePublicView(pod.deps.decider, BASE))
    expect((await read('/public/small.json'))?.body).toBe('{"small":true}')
    expect(await read('/public/big.json')).toBeUndefined()
  })
  test.each(['/private/secret.ttl', '/private/bin.pdf', '/private/missing.ttl', '/.acl', '/profile/card.acl'])(
    '%s is not read: exactly as if it did not exist',
    async path => {
      expect(await loadLocalDocument(pod.store, BASE, BASE + path, 'text/turtle', pod.clock.now, makePublicView(pod.deps.decider, BASE))).toBeUndefined()
    },
  )
})

/**
 * An access token signed with the pod's own key, naming `webid`: it verifies, so the profile is read (a token
 * that does not verify is refused before any profile is), and the profile does not name the pod as its issuer.
 */
async function forgedRequest(webid: string): Promise<Request> {
  const signing = await pod.deps.signingKeys.current(pod.clock.now)
  const iat = Math.floor(pod.clock.now / 1000)
  const token = await new SignJWT({ webid, cnf: { jkt: key.jkt }, client_id: 'https://app.example/id' })
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: 'at+jwt' })
    .setIssuer(BASE)
    .setAudience('solid')
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .sign(signing.privateKey)
  const url = `${BASE}/profile/card`
  return new Request(url, { headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(key, 'GET', url, pod.clock.now, { accessToken: token }) } })
}

describe('a token whose webid is a document the requester cannot read', () => {
  test('a public file is read whole; one larger than any document the pod reads is not read at all', async () => {
    const read = (path: string) => loadLocalDocument(pod.store, BASE, BASE + path, 'application/json', pod.clock.now, makePublicView(pod.deps.decider, BASE))
    expect((await read('/public/small.json'))?.body).toBe('{"small":true}')
    expect(await read('/public/big.json')).toBeUndefined()
  })
  test.each(['/private/secret.ttl', '/private/bin.pdf', '/private/missing.ttl'])(
    '%s: 401 invalid_token, the same refusal as for a missing document',
    async path => {
      const res = await pod.handle(await forgedRequest(`${BASE}${path}#me`))
      expect(res.status).toBe(401)
      const challenge = res.headers.get('www-authenticate')!
      expect(challenge).toContain('error="invalid_token"')
      const body = await res.text()
      for (const leak of [SECRET_ISSUER, 'pdf', 'application/', 'oidcIssuer', 'no such document'])
        expect((challenge + body).replaceAll(path, '')).not.toContain(leak)
      const missing = await pod.handle(await forgedRequest(`${BASE}/private/missing.ttl#me`))
      // UMA tickets are fresh per answer; everything else must be the same
      const same = (c: string, p: string) => c.replaceAll(p, '').replace(/ticket="[^"]*"/, 'ticket')
      expect(same(challenge, path)).toBe(same(missing.headers.get('www-authenticate')!, '/private/missing.ttl'))
    },
  )
  test('a public profile is read, and what it lists may be quoted', async () => {
    const res = await pod.handle(await forgedRequest(`${BASE}/public/me.ttl#me`))
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain(SECRET_ISSUER)
  })
})

describe('GET /.oidc/auth with a client_id on this pod the public cannot read', () => {
  const authorize = (clientId: string) =>
    pod.request(
      `/.oidc/auth?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'https://app.example/callback',
        scope: 'openid webid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      })}`,
    )
  test.each(['/private/app.jsonld', '/private/bin.pdf', '/private/secret.ttl'])(
    '%s: 400 invalid_client, the same page as for a missing document',
    async path => {
      const res = await authorize(BASE + path)
      expect(res.status).toBe(400)
      expect(res.headers.get('location')).toBeNull()
      const page = await res.text()
      expect(pageError(page)).toBe('invalid_client')
      for (const leak of ['pdf', 'application/', 'turtle', 'no such document']) expect(page.replaceAll(path, '')).not.toContain(leak)
      const missing = await (await authorize(`${BASE}/private/nothing`)).text()
      expect(page.replaceAll(path, '')).toBe(missing.replaceAll('/private/nothing', ''))
    },
  )
})
