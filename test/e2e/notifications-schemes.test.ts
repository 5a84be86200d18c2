// Subscribing is proven with any scheme the pod accepts: besides DPoP (notifications-websocket.test.ts), an
// HttpSig signature by an independent RFC 9421 signer (its Content-Digest checked against the body), and a
// UMA access token bought with the ticket of the refused subscription.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { expectRsError } from '../rs/rs-helpers.ts'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'
import { readUmaChallenge, requestUmaToken, umaTokenEndpoint } from './uma-client.ts'
import { listenOnSocket, NOTIFICATION_CONTEXT, signInOwnerApp, type OwnerApp } from './notify-client.ts'

// RFC 9421 B.1.4 test-key-ed25519 and its did:key
const ED25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }
const DID = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'
const DOC = '/sensors/k%C3%BCche%20%23%3F%25+.ttl'

let pod: RunningPod
let owner: OwnerApp
beforeAll(async () => {
  pod = await startPod()
  owner = await signInOwnerApp(pod)
  const put = (path: string, body: string) => owner.fetch(pod.baseUrl + path, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
  expect((await put(DOC, '<#t> <http://example.org/celsius> 20.')).status).toBe(201)
  expect(
    (
      await put(
        `${DOC}.acl`,
        `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <${pod.baseUrl}${DOC}>; acl:mode acl:Read, acl:Write, acl:Control.
<#sensor-reader> a acl:Authorization; acl:agent <${DID}>; acl:accessTo <${pod.baseUrl}${DOC}>; acl:mode acl:Read.`,
      )
    ).status,
  ).toBe(201)
}, 60_000)
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

const service = () => `${pod.baseUrl}/.notifications/WebSocketChannel2023/`
const requestBody = () => JSON.stringify({ '@context': [NOTIFICATION_CONTEXT], type: 'WebSocketChannel2023', topic: pod.baseUrl + DOC })
const change = (n: number) =>
  owner.fetch(pod.baseUrl + DOC, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: `<#t> <http://example.org/celsius> ${n}.` })

describe('HttpSig', () => {
  test('a signed subscription by a key the ACL names opens a channel that hears the changes', async () => {
    const body = requestBody()
    const headers = await signedHeaders(service(), {
      key: privateKeyOf(ED25519),
      alg: 'ed25519',
      keyid: DID,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/ld+json' },
    })
    const res = await fetch(service(), { method: 'POST', headers, body })
    expect(res.status).toBe(200)
    const { socket, inbox } = await listenOnSocket(String(((await res.json()) as { receiveFrom: string }).receiveFrom))
    try {
      expect((await change(21)).status).toBeLessThan(300)
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: pod.baseUrl + DOC })
    } finally {
      socket.close()
    }
  })

  test('a body other than the one signed (its Content-Digest) → 401 invalid_signature, nothing opened', async () => {
    const headers = await signedHeaders(service(), {
      key: privateKeyOf(ED25519),
      alg: 'ed25519',
      keyid: DID,
      method: 'POST',
      body: requestBody(),
      headers: { 'content-type': 'application/ld+json' },
    })
    const other = requestBody().replace(DOC, '/profile/card')
    await expectRsError(await fetch(service(), { method: 'POST', headers, body: other }), 401, 'invalid_signature')
  })
})

describe('UMA', () => {
  test("the anonymous subscription's 401 carries a ticket; the token bought with it subscribes", async () => {
    const refused = await fetch(service(), { method: 'POST', headers: { 'content-type': 'application/ld+json' }, body: requestBody() })
    expect(refused.status).toBe(401)
    const { asUri, ticket } = readUmaChallenge(refused)
    const bought = await requestUmaToken(await umaTokenEndpoint(asUri), ticket, owner.tokens.id_token as string, owner.key)
    expect(bought.status, await bought.clone().text()).toBe(200)
    const token = ((await bought.json()) as { access_token: string }).access_token
    const res = await fetch(service(), {
      method: 'POST',
      headers: { 'content-type': 'application/ld+json', authorization: `Bearer ${token}` },
      body: requestBody(),
    })
    expect(res.status).toBe(200)
    const { socket, inbox } = await listenOnSocket(String(((await res.json()) as { receiveFrom: string }).receiveFrom))
    try {
      expect((await change(22)).status).toBeLessThan(300)
      expect(await inbox.next()).toMatchObject({ type: 'Update', object: pod.baseUrl + DOC })
    } finally {
      socket.close()
    }
  })

  test('a UMA token for another resource does not subscribe to this one → 403 insufficient_scope', async () => {
    const refused = await fetch(pod.baseUrl + '/profile/card.acl')
    const { asUri, ticket } = readUmaChallenge(refused)
    const bought = await requestUmaToken(await umaTokenEndpoint(asUri), ticket, owner.tokens.id_token as string, owner.key)
    const token = ((await bought.json()) as { access_token: string }).access_token
    const res = await fetch(service(), {
      method: 'POST',
      headers: { 'content-type': 'application/ld+json', authorization: `Bearer ${token}` },
      body: requestBody(),
    })
    await expectRsError(res, 403, 'insufficient_scope')
  })
})

describe("a container's notifications name only members the listener may read", () => {
  test('Read of the folder alone: the Add and Remove of a member it may not read are not told; with Read of its members, they are', async () => {
    const folder = '/sensors/'
    const put = (path: string, body: string) => owner.fetch(pod.baseUrl + path, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
    // the key may read the folder (its listing) but not, by default, what is in it
    expect(
      (
        await put(
          `${folder}.acl`,
          `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#folder> a acl:Authorization; acl:agent <${DID}>; acl:accessTo <./>; acl:mode acl:Read.`,
        )
      ).status,
    ).toBeLessThan(300)
    const body = JSON.stringify({ '@context': [NOTIFICATION_CONTEXT], type: 'WebSocketChannel2023', topic: pod.baseUrl + folder })
    const headers = await signedHeaders(service(), {
      key: privateKeyOf(ED25519),
      alg: 'ed25519',
      keyid: DID,
      method: 'POST',
      body,
      headers: { 'content-type': 'application/ld+json' },
    })
    const res = await fetch(service(), { method: 'POST', headers, body })
    expect(res.status).toBe(200)
    const { socket, inbox } = await listenOnSocket(String(((await res.json()) as { receiveFrom: string }).receiveFrom))
    try {
      expect((await put('/sensors/private%20diary.ttl', '<#d> <http://example.org/p> "not for the key".')).status).toBe(201)
      expect(await inbox.quietFor(400)).toBe(true)
      expect((await owner.fetch(pod.baseUrl + '/sensors/private%20diary.ttl', { method: 'DELETE' })).status).toBe(204)
      expect(await inbox.quietFor(300)).toBe(true)
      // once the key may read what the folder holds (acl:default), the next member's Add is told
      expect(
        (
          await put(
            `${folder}.acl`,
            `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#folder> a acl:Authorization; acl:agent <${DID}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
          )
        ).status,
      ).toBeLessThan(300)
      const open = '/sensors/open%20reading.ttl'
      expect((await put(open, '<#r> <http://example.org/p> 1.')).status).toBe(201)
      expect(await inbox.next()).toMatchObject({ type: 'Add', object: pod.baseUrl + open, target: pod.baseUrl + folder })
    } finally {
      socket.close()
    }
  })
})
