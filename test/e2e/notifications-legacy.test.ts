// The legacy solid-0.1 protocol (rdflib's UpdateManager, the SolidOS data browser) over real HTTP: Updates-Via on
// every read, `sub` / `ack` / `pub`, and who may listen — anonymous on public data, the reader named by the
// capability in their Updates-Via, nobody through a forged one, and nobody once the access is gone.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startPod, type RunningPod } from './start-server.ts'
import { Inbox, signInOwnerApp, type OwnerApp } from './notify-client.ts'
import WebSocketClient from 'ws'
import { privateKeyOf, signedHeaders } from '../auth/httpsig/sign-request.ts'
import { csrfToken } from './owner-login.ts'

let pod: RunningPod
let owner: OwnerApp
const url = (path: string) => pod.baseUrl + path
// Names are not ASCII: a space, an accent, and encoded `#`, `?`, `%` and `+`
const PUBLIC_DOC = '/open%20notes/caf%C3%A9%20%23%3F%25+.ttl'
const PRIVATE_DOC = '/private/journal%20intime.ttl'

const put = async (path: string, body: string) => {
  const res = await owner.fetch(url(path), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
  expect(res.status).toBeLessThan(300)
}
const publicAcl = (modes: string) => `@prefix acl: <http://www.w3.org/ns/auth/acl#>.
<#owner> a acl:Authorization; acl:agent <${pod.baseUrl}/profile/card#me>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
${modes ? `<#public> a acl:Authorization; acl:agentClass <http://xmlns.com/foaf/0.1/Agent>; acl:accessTo <./>; acl:default <./>; acl:mode ${modes}.` : ''}`

beforeAll(async () => {
  pod = await startPod({ extraArgs: ['--log-level', 'debug'] }) // every request logged: the capability must not be
  owner = await signInOwnerApp(pod)
  await put(PUBLIC_DOC, '<#a> <http://example.org/p> 0.')
  await put('/open%20notes/.acl', publicAcl('acl:Read'))
  await put(PRIVATE_DOC, '<#j> <http://example.org/p> 0.')
}, 60_000)
afterAll(async () => {
  owner?.stop()
  await pod?.dispose()
})

/** A solid-0.1 socket as rdflib opens it (no subprotocol unless asked), collecting its lines. */
async function legacySocket(updatesVia: string, protocols?: string[]) {
  const socket = new WebSocket(updatesVia, protocols)
  const lines = new Inbox<string>()
  socket.onmessage = e => lines.push(String(e.data))
  socket.onclose = e => lines.close(e.code, e.reason)
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve()
    socket.onerror = () => reject(new Error('could not open'))
  })
  return { socket, lines, sub: (u: string) => socket.send(`sub ${u}`) }
}

describe('Updates-Via', () => {
  test("an anonymous read names the socket; an authenticated one names it with the reader's capability", async () => {
    const anonymous = await fetch(url(PUBLIC_DOC), { headers: { origin: 'https://solidos.example' } })
    expect(anonymous.headers.get('updates-via')).toBe(`ws://localhost:${pod.port}/.notifications/solid-0.1`)
    const mine = (await owner.fetch(url(PRIVATE_DOC))).headers.get('updates-via')!
    expect(mine).toMatch(new RegExp(`^ws://localhost:${pod.port}/\\.notifications/solid-0\\.1\\?auth=[\\w-]+\\.[\\w-]+$`))
    // the same reader gets the same URL (rdflib opens one socket per URL)
    expect((await owner.fetch(url(PUBLIC_DOC))).headers.get('updates-via')).toBe(mine)
    expect(anonymous.headers.get('access-control-expose-headers') ?? '').toContain('Updates-Via')
  })
})

describe('Updates-Via on every answer (a solid-0.1 client subscribes before it creates)', () => {
  test('404, 401, 403, 405, 409 and OPTIONS name the socket as a read does', async () => {
    const socket = `ws://localhost:${pod.port}/.notifications/solid-0.1`
    // a did:key agent (RFC 9421 B.1.4's Ed25519 test key) the private folder does not admit
    const didKey = 'did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG'
    const ed25519 = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs', d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' }
    const answers: [number, Response][] = [
      [404, await fetch(url('/open%20notes/not%20yet.ttl'), { method: 'HEAD' })],
      [401, await fetch(url(PRIVATE_DOC))],
      [
        403,
        await fetch(url(PRIVATE_DOC), {
          headers: await signedHeaders(url(PRIVATE_DOC), { key: privateKeyOf(ed25519), alg: 'ed25519', keyid: didKey, method: 'GET' }),
        }),
      ],
      [405, await owner.fetch(url('/'), { method: 'DELETE' })],
      [409, await owner.fetch(url(`${PUBLIC_DOC}/child.ttl`), { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' })],
      [204, await fetch(url('/open%20notes/not%20yet.ttl'), { method: 'OPTIONS' })],
    ]
    for (const [status, res] of answers) {
      expect({ status: res.status, via: res.headers.get('updates-via')?.split('?')[0] }).toEqual({ status, via: socket })
    }
    // the anonymous answers name the bare socket, the owner's the socket with the owner's capability
    expect(answers[0]![1].headers.get('updates-via')).toBe(socket)
    expect(answers[3]![1].headers.get('updates-via')).toMatch(/\?auth=[\w-]+\.[\w-]+$/)
  })

  test('with the ws client: HEAD a missing document, read Updates-Via, sub, create it, and hear pub', async () => {
    const doc = '/open%20notes/made%20after%20sub%20%C3%A9.ttl'
    const head = await fetch(url(doc), { method: 'HEAD' })
    expect(head.status).toBe(404)
    const via = head.headers.get('updates-via')!
    const socket = new WebSocketClient(via, ['solid-0.1'])
    const lines = new Inbox<string>()
    socket.on('message', data => lines.push(String(data)))
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    try {
      socket.send(`sub ${url(doc)}`)
      expect(await lines.next()).toBe(`ack ${url(doc)}`)
      await put(doc, '<#new> <http://example.org/p> 1.')
      expect(await lines.next()).toBe(`pub ${url(doc)}`)
    } finally {
      socket.close()
    }
  })
})

describe('sub, ack, pub', () => {
  test('anonymous on public data: ack, then a pub for each change of the document, and of its folder when a member is added', async () => {
    const via = (await fetch(url(PUBLIC_DOC))).headers.get('updates-via')!
    const { socket, lines, sub } = await legacySocket(via, ['solid-0.1'])
    try {
      expect(socket.protocol).toBe('solid-0.1')
      sub(url(PUBLIC_DOC))
      sub(url('/open%20notes/'))
      expect([await lines.next(), await lines.next()].sort()).toEqual([`ack ${url('/open%20notes/')}`, `ack ${url(PUBLIC_DOC)}`].sort())
      await put(PUBLIC_DOC, '<#a> <http://example.org/p> 1.')
      expect(await lines.next()).toBe(`pub ${url(PUBLIC_DOC)}`)
      await put('/open%20notes/%C3%A9t%C3%A9.ttl', '<#b> <http://example.org/p> 1.')
      expect(await lines.next()).toBe(`pub ${url('/open%20notes/')}`)
      expect(await lines.quietFor(200)).toBe(true)
    } finally {
      socket.close()
    }
  })

  test('anonymous on private data: err forbidden, whether or not it exists, and no pub', async () => {
    const { socket, lines, sub } = await legacySocket(`ws://localhost:${pod.port}/.notifications/solid-0.1`)
    try {
      sub(url(PRIVATE_DOC))
      expect(await lines.next()).toBe(`err ${url(PRIVATE_DOC)} forbidden`)
      sub(url('/private/nothing%20here.ttl'))
      expect(await lines.next()).toBe(`err ${url('/private/nothing%20here.ttl')} forbidden`)
      await put(PRIVATE_DOC, '<#j> <http://example.org/p> 1.')
      expect(await lines.quietFor(300)).toBe(true)
      sub('https://elsewhere.example/doc')
      expect(await lines.next()).toBe('err https://elsewhere.example/doc not a resource of this pod')
    } finally {
      socket.close()
    }
  })

  test("the owner's capability: ack and pub on private data; a forged or altered capability is anonymous", async () => {
    const via = (await owner.fetch(url(PRIVATE_DOC))).headers.get('updates-via')!
    const { socket, lines, sub } = await legacySocket(via)
    try {
      sub(url(PRIVATE_DOC))
      expect(await lines.next()).toBe(`ack ${url(PRIVATE_DOC)}`)
      await put(PRIVATE_DOC, '<#j> <http://example.org/p> 2.')
      expect(await lines.next()).toBe(`pub ${url(PRIVATE_DOC)}`)
    } finally {
      socket.close()
    }
    const [base, auth] = via.split('?auth=')
    const [payload, mac] = auth!.split('.')
    for (const forged of [`${payload}.${mac!.slice(0, -2)}AA`, `${payload}x.${mac}`, 'garbage']) {
      const f = await legacySocket(`${base}?auth=${forged}`)
      f.sub(url(PRIVATE_DOC))
      expect(await f.lines.next()).toBe(`err ${url(PRIVATE_DOC)} forbidden`)
      f.socket.close()
    }
    expect(pod.stdout()).toContain('"path":"/.notifications/solid-0.1"')
    expect(pod.output()).not.toContain(mac!)
  })
})

describe('bounds', () => {
  test('at most 100 subs per socket, even when they come in one message', async () => {
    const { socket, lines } = await legacySocket(`ws://localhost:${pod.port}/.notifications/solid-0.1`)
    try {
      const topics = Array.from({ length: 120 }, (_, i) => url(`/open%20notes/n%C2%B0${i}.ttl`))
      socket.send(topics.map(t => `sub ${t}`).join('\n'))
      const answers: string[] = []
      for (let i = 0; i < 120; i++) answers.push(await lines.next())
      expect(answers.filter(a => a.startsWith('ack ')).length).toBe(100)
      expect(answers.filter(a => a.endsWith('too many subscriptions on this socket (100)')).length).toBe(20)
      socket.send(`sub ${answers.find(a => a.startsWith('ack '))!.slice(4)}`) // one already held is acked again
      expect(await lines.next()).toStartWith('ack ')
    } finally {
      socket.close()
    }
  })

  test('the same sub twice in one message: two acks, one listener (one pub per change)', async () => {
    const { socket, lines } = await legacySocket(`ws://localhost:${pod.port}/.notifications/solid-0.1`)
    try {
      socket.send(`sub ${url(PUBLIC_DOC)}\nsub ${url(PUBLIC_DOC)}#it`)
      expect([await lines.next(), await lines.next()]).toEqual([`ack ${url(PUBLIC_DOC)}`, `ack ${url(PUBLIC_DOC)}`])
      await put(PUBLIC_DOC, '<#a> <http://example.org/p> "twice".')
      expect(await lines.next()).toBe(`pub ${url(PUBLIC_DOC)}`)
      expect(await lines.quietFor(300)).toBe(true)
    } finally {
      socket.close()
    }
  })
})

describe('when access ends', () => {
  test('the owner takes the public Read away: the sub is dropped (no pub), the socket stays, and a new sub is refused', async () => {
    const { socket, lines, sub } = await legacySocket(`ws://localhost:${pod.port}/.notifications/solid-0.1`)
    try {
      sub(url(PUBLIC_DOC))
      expect(await lines.next()).toBe(`ack ${url(PUBLIC_DOC)}`)
      await put('/open%20notes/.acl', publicAcl(''))
      await put(PUBLIC_DOC, '<#a> <http://example.org/p> "private now".')
      expect(await lines.quietFor(300)).toBe(true)
      expect(lines.closed).toBeUndefined()
      sub(url(PUBLIC_DOC))
      expect(await lines.next()).toBe(`err ${url(PUBLIC_DOC)} forbidden`)
    } finally {
      socket.close()
      await put('/open%20notes/.acl', publicAcl('acl:Read'))
    }
  })

  test('the owner revokes the app whose read gave the capability: its subs hear nothing more', async () => {
    const app = await signInOwnerApp(pod, 'A SolidOS-like app the owner revokes')
    try {
      const via = (await app.fetch(url(PRIVATE_DOC))).headers.get('updates-via')!
      const { socket, lines, sub } = await legacySocket(via)
      sub(url(PRIVATE_DOC))
      expect(await lines.next()).toBe(`ack ${url(PRIVATE_DOC)}`)
      const csrf = { token: await csrfToken(pod.baseUrl, app.browser) }.token
      expect(
        (
          await fetch(url(`/.admin/api/consents/${encodeURIComponent(app.client.clientId)}`), {
            method: 'DELETE',
            headers: { cookie: app.browser.header(), 'x-csrf-token': csrf, origin: pod.baseUrl },
          })
        ).status,
      ).toBe(204)
      await put(PRIVATE_DOC, '<#j> <http://example.org/p> 3.')
      expect(await lines.quietFor(300)).toBe(true)
      sub(url(PRIVATE_DOC))
      expect(await lines.next()).toBe(`err ${url(PRIVATE_DOC)} forbidden`)
      socket.close()
    } finally {
      app.stop()
    }
  })
})
