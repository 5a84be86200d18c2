import { afterAll, afterEach, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { GROUP_CACHE_TTL_MS } from '../../src/policy/access-decider.ts'
import { agent, BASE, decide, openAccessPod, type AccessPod } from './access-fixture.ts'
import type { ClientId } from '../../src/account/ids.ts'

// Issue 4 "decisions are fast": parsed ACLs cached per ACL resource and dropped on every write to it,
// group documents cached with a bound; and a cache never outlives the write that made it stale.

const BOB = agent('https://bob.example/profile#me')
const CAROL = agent('https://carol.example/profile#me')
const DAN = agent('https://dan.example/profile#me')

const readRule = (target: string, subject: string) => `[] a acl:Authorization; acl:accessTo <${target}>; ${subject}; acl:mode acl:Read.\n`

let pod: AccessPod
let remote: ReturnType<typeof Bun.serve>
let remoteHits = 0
let remoteStatus = 200
let teamUrl = ''

beforeAll(async () => {
  pod = await openAccessPod()
  remote = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => {
      remoteHits++
      if (remoteStatus !== 200) return new Response('down', { status: remoteStatus })
      return new Response(`<#g> <http://www.w3.org/2006/vcard/ns#hasMember> <${DAN.webid}>.`, { headers: { 'content-type': 'text/turtle' } })
    },
  })
  teamUrl = `http://localhost:${remote.port}/team`
  await pod.seed('/a/b/c/doc', '')
  await pod.seed('/a/.acl', `[] a acl:Authorization; acl:default <./>; acl:agent <${BOB.webid}>; acl:mode acl:Read.`)
  await pod.seed('/remote', '')
  await pod.seed('/remote.acl', readRule('remote', `acl:agentGroup <${teamUrl}#g>`) + readRule('remote', `acl:agent <${CAROL.webid}>`))
  await pod.seed('/groups/friends', `<#g> vcard:hasMember <${CAROL.webid}>.`)
  await pod.seed('/local', '')
  await pod.seed('/local.acl', readRule('local', 'acl:agentGroup </groups/friends#g>'))
})

afterAll(async () => {
  remote.stop(true)
  await pod.close()
})

/** Counts every read of resource metadata and quads while `run` runs. */
async function storeReads(run: () => Promise<unknown>): Promise<number> {
  const meta = spyOn(pod.store.meta, 'get')
  const quads = spyOn(pod.store.quads, 'get')
  try {
    await run()
    return meta.mock.calls.length + quads.mock.calls.length
  } finally {
    meta.mockRestore()
    quads.mockRestore()
  }
}

const get = (path: string) => ({ method: 'GET', path })

describe('ACL cache', () => {
  test('a second decision reads nothing from the store, missing ACLs on the way included', async () => {
    const first = await storeReads(() => decide(pod.access, BOB, get('/a/b/c/doc')))
    expect(first).toBeGreaterThan(0)
    // The walk /a/b/c/doc.acl → /a/b/c/.acl → /a/b/.acl → /a/.acl is answered from memory, for anyone.
    expect(await storeReads(() => decide(pod.access, BOB, get('/a/b/c/doc')))).toBe(0)
    expect(await storeReads(() => decide(pod.access, CAROL, get('/a/b/c/doc')))).toBe(0)
  })

  test('a write to an ACL (straight to the store: the decider hears the change feed) makes the next decision read it afresh', async () => {
    expect((await decide(pod.access, BOB, get('/a/b/c/doc'))).status).toBe(200)
    await pod.seed('/a/.acl', `[] a acl:Authorization; acl:default <./>; acl:agent <${CAROL.webid}>; acl:mode acl:Read.`)
    expect((await decide(pod.access, BOB, get('/a/b/c/doc'))).status).toBe(403)
    expect((await decide(pod.access, CAROL, get('/a/b/c/doc'))).status).toBe(200)
  })

  test('a new ACL below a cached inheritance walk takes effect at once', async () => {
    expect((await decide(pod.access, CAROL, get('/a/b/c/doc'))).status).toBe(200)
    await pod.seed('/a/b/c/doc.acl', readRule('doc', `acl:agent <${DAN.webid}>`))
    expect((await decide(pod.access, CAROL, get('/a/b/c/doc'))).status).toBe(403)
    expect((await decide(pod.access, DAN, get('/a/b/c/doc'))).status).toBe(200)
  })

  test('a load that read the old ACL before a write committed does not cache it', async () => {
    await pod.seed('/race', '')
    await pod.seed('/race.acl', readRule('race', `acl:agent <${BOB.webid}>`))
    const original = pod.store.quads.get.bind(pod.store.quads)
    let entered!: () => void
    let release!: () => void
    const reached = new Promise<void>(r => {
      entered = r
    })
    const gate = new Promise<void>(r => {
      release = r
    })
    let pauseNext = true
    const spy = spyOn(pod.store.quads, 'get').mockImplementation((async (...args: Parameters<typeof original>) => {
      const result = await original(...args)
      if (pauseNext) {
        pauseNext = false
        entered()
        await gate
      }
      return result
    }) as never)
    try {
      const first = decide(pod.access, BOB, get('/race'))
      await reached // the old rules are read, not yet cached
      await pod.seed('/race.acl', readRule('race', `acl:agent <${CAROL.webid}>`))
      release()
      expect((await first).status).toBe(200) // decided before the write: the old rules
    } finally {
      spy.mockRestore()
    }
    expect((await decide(pod.access, BOB, get('/race'))).status).toBe(403)
    expect((await decide(pod.access, CAROL, get('/race'))).status).toBe(200)
  })
})

// Issue 9 "Reads": an anonymous requester's decision depends on the ACLs alone, so it is remembered per
// target and Origin until any ACL is written.
describe('anonymous decisions', () => {
  const ANON: Parameters<typeof decide>[1] = { keys: [], scheme: 'anonymous' }
  const publicRule = (target: string) => `[] a acl:Authorization; acl:accessTo <${target}>; acl:agentClass foaf:Agent; acl:mode acl:Read.\n`

  test('an ACL write changes the next anonymous decision and its WAC-Allow at once', async () => {
    await pod.seed('/flip', '')
    await pod.seed('/flip.acl', publicRule('flip'))
    const before = await decide(pod.access, ANON, get('/flip'))
    expect(before.status).toBe(200)
    expect(before.wacAllow).toBe('user="read",public="read"')
    await pod.seed('/flip.acl', readRule('flip', `acl:agent <${BOB.webid}>`))
    const after = await decide(pod.access, ANON, get('/flip'))
    expect(after.status).toBe(401)
    expect(after.wacAllow).toBe('user="",public=""')
  })

  test('an ACL written elsewhere in the pod still clears what was remembered (an inherited rule may change)', async () => {
    await pod.seed('/tree/leaf', '')
    await pod.seed('/tree/.acl', `[] a acl:Authorization; acl:default <./>; acl:agentClass foaf:Agent; acl:mode acl:Read.`)
    expect((await decide(pod.access, ANON, get('/tree/leaf'))).status).toBe(200)
    await pod.seed('/tree/.acl', `[] a acl:Authorization; acl:default <./>; acl:agent <${BOB.webid}>; acl:mode acl:Read.`)
    expect((await decide(pod.access, ANON, get('/tree/leaf'))).status).toBe(401)
  })

  test('the Origin is part of what is remembered: acl:origin rules still apply per Origin', async () => {
    await pod.seed('/app-only', '')
    await pod.seed(
      '/app-only.acl',
      `[] a acl:Authorization; acl:accessTo <app-only>; acl:agentClass foaf:Agent; acl:origin <https://app.example>; acl:mode acl:Read.`,
    )
    expect((await decide(pod.access, ANON, { ...get('/app-only'), origin: 'https://app.example' })).status).toBe(200)
    expect((await decide(pod.access, ANON, { ...get('/app-only'), origin: 'https://evil.example' })).status).toBe(401)
    expect((await decide(pod.access, ANON, { ...get('/app-only'), origin: 'https://app.example' })).status).toBe(200)
  })
})

// Issue 41: each target's effective ACL and public modes are kept for every requester (access-decider.ts
// aclView); the authenticated decision is still made afresh from them, and a kept view goes with any ACL write.
describe('effective ACLs kept per target', () => {
  test("an authenticated requester's decision and WAC-Allow public follow an ACL write at once", async () => {
    await pod.seed('/kept/doc', '')
    await pod.seed('/kept/.acl', `[] a acl:Authorization; acl:default <./>; acl:agent <${BOB.webid}>; acl:mode acl:Read.`)
    const before = await decide(pod.access, BOB, get('/kept/doc'))
    expect(before.status).toBe(200)
    expect(before.wacAllow).toBe('user="read",public=""')
    // the view is kept: a second requester reads no ACL from the store
    expect(await storeReads(() => decide(pod.access, CAROL, get('/kept/doc')))).toBe(0)
    await pod.seed(
      '/kept/.acl',
      `[] a acl:Authorization; acl:default <./>; acl:agentClass foaf:Agent; acl:mode acl:Read.
      [] a acl:Authorization; acl:default <./>; acl:agent <${CAROL.webid}>; acl:mode acl:Read, acl:Write.`,
    )
    const bob = await decide(pod.access, BOB, get('/kept/doc'))
    expect(bob.status).toBe(200)
    expect(bob.wacAllow).toBe('user="read",public="read"')
    expect((await decide(pod.access, CAROL, { method: 'PUT', path: '/kept/doc' })).status).toBe(200)
  })

  test('an ACL made for the target itself replaces the inherited one it was decided by', async () => {
    await pod.seed('/kept/own', '')
    expect((await decide(pod.access, BOB, get('/kept/own'))).status).toBe(200)
    await pod.seed('/kept/own.acl', readRule('own', `acl:agent <${DAN.webid}>`))
    const bob = await decide(pod.access, BOB, get('/kept/own'))
    expect(bob.status).toBe(403)
    expect(bob.wacAllow).toBe('user="",public=""')
    expect((await decide(pod.access, DAN, get('/kept/own'))).status).toBe(200)
  })
})

describe('group document cache', () => {
  afterEach(() => {
    remoteStatus = 200
  })

  test('a remote group document is fetched once for many decisions and requesters', async () => {
    remoteHits = 0
    pod.clock.t += GROUP_CACHE_TTL_MS // start from an empty cache
    expect((await decide(pod.access, DAN, get('/remote'))).status).toBe(200)
    expect((await decide(pod.access, DAN, get('/remote'))).status).toBe(200)
    expect((await decide(pod.access, BOB, get('/remote'))).status).toBe(403)
    expect(remoteHits).toBe(1)
  })

  test('the cached members expire: the document is fetched again after the TTL', async () => {
    await decide(pod.access, DAN, get('/remote'))
    const before = remoteHits
    pod.clock.t += GROUP_CACHE_TTL_MS
    expect((await decide(pod.access, DAN, get('/remote'))).status).toBe(200)
    expect(remoteHits).toBe(before + 1)
  })

  test('an unreachable group matches no one, other rules still apply, and the failure is not cached', async () => {
    pod.clock.t += GROUP_CACHE_TTL_MS
    remoteStatus = 500
    expect((await decide(pod.access, DAN, get('/remote'))).status).toBe(403)
    expect((await decide(pod.access, CAROL, get('/remote'))).status).toBe(200)
    remoteStatus = 200
    pod.clock.t += 10 * 60_000 // past the fetcher's own floor as well
    expect((await decide(pod.access, DAN, get('/remote'))).status).toBe(200)
  })

  test('a local group document edited through the pod decides the next request', async () => {
    expect((await decide(pod.access, CAROL, get('/local'))).status).toBe(200)
    expect(await storeReads(() => decide(pod.access, CAROL, get('/local')))).toBe(0)
    await pod.seed('/groups/friends', `<#g> vcard:hasMember <${BOB.webid}>.`)
    expect((await decide(pod.access, CAROL, get('/local'))).status).toBe(403)
    expect((await decide(pod.access, BOB, get('/local'))).status).toBe(200)
  })
})

describe('WAC-Allow without a decision', () => {
  test('wacAllowFor gives the target modes and public modes, without throwing for a denied requester', async () => {
    await pod.seed('/wac', '')
    await pod.seed(
      '/wac.acl',
      `[] a acl:Authorization; acl:accessTo <wac>; acl:agent <${BOB.webid}>; acl:mode acl:Read, acl:Write.\n` + readRule('wac', 'acl:agentClass foaf:Agent'),
    )
    expect(await pod.access.wacAllowFor(BOB, `${BASE}/wac`, undefined)).toBe('user="read write append",public="read"')
    expect(await pod.access.wacAllowFor(CAROL, `${BASE}/wac`, undefined)).toBe('user="read",public="read"')
    expect(await pod.access.wacAllowFor(CAROL, `${BASE}/wac.acl`, undefined)).toBe('user="",public=""')
  })
})

describe('WAC 1.1 ED §4.4 conditions and the anonymous decision cache', () => {
  const APP = 'https://app.example/id'
  test('anonymous decisions stay cached per target and conditions are judged for every other requester', async () => {
    await pod.seed('/cond', '')
    await pod.seed(
      '/cond.acl',
      `[] a acl:Authorization; acl:accessTo <cond>; acl:agentClass foaf:Agent; acl:mode acl:Read;
      acl:condition [ a acl:ClientCondition; acl:clientClass foaf:Agent ].
      [] a acl:Authorization; acl:accessTo <cond>; acl:agent <${BOB.webid}>; acl:mode acl:Write; acl:condition [ a acl:IssuerCondition; acl:issuer <https://idp.example> ].`,
    )
    const get = { method: 'GET', path: '/cond' }
    const anonymous = { keys: [], scheme: 'anonymous' } as const
    const first = await pod.deps.decider.decide(anonymous, `${BASE}/cond`, undefined)
    expect((await decide(pod.access, anonymous, get)).status).toBe(401)
    // the same decision object: answered from the anonymous cache, and public has nothing from a conditioned rule
    expect(await pod.deps.decider.decide(anonymous, `${BASE}/cond`, undefined)).toBe(first)
    expect([...first.publicModes]).toEqual([])
    // an app (any client) is not anonymous: decided afresh, and the condition holds
    expect((await decide(pod.access, { ...BOB, clientId: APP as ClientId }, get)).status).toBe(200)
    expect((await decide(pod.access, BOB, get)).status).toBe(403)
    // an issuer alone could meet an issuer condition: never taken for anonymous
    const byIssuer = await pod.deps.decider.decide({ keys: [], webid: BOB.webid!, issuer: 'https://idp.example' }, `${BASE}/cond`, undefined)
    expect([...byIssuer.modes].sort()).toEqual(['append', 'write'])
    expect(await pod.deps.decider.decide({ keys: [], issuer: 'https://idp.example' }, `${BASE}/cond`, undefined)).not.toBe(first)
  })
})
