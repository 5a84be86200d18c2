import { describe, expect, test } from 'bun:test'
import type { Quad } from '@rdfjs/types'
import { Parser } from 'n3'
import type { WebId } from '../../src/account/ids.ts'
import { HttpError } from '../../src/http/errors.ts'
import { groupDocumentUrl, groupMembers, makeGroupResolver } from '../../src/policy/group-members.ts'
import type { Requester } from '../../src/policy/wac.ts'

const POD = 'https://pod.example'
const DOC = `${POD}/groups/team`
const GROUP = `${DOC}#devs`
const REMOTE_DOC = 'https://other.example/groups'
const PREFIXES = `@prefix vcard: <http://www.w3.org/2006/vcard/ns#>. @prefix cert: <http://www.w3.org/ns/auth/cert#>.\n`
const quadsOf = (ttl: string, base: string) => new Parser({ baseIRI: base }).parse(PREFIXES + ttl)
const DID = 'did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp'

const TEAM = `<#devs> a vcard:Group; vcard:hasMember <https://bob.example/card#me>, </profile/card#me>,
    [ cert:key <../keys/k1#k> ], [ cert:key <https://iama.star/love/me/key#i> ], <${DID}>, <https://carol.example/#me>.
  <https://carol.example/#me> cert:key <https://carol.example/keys#c>.
  <#ops> a vcard:Group; vcard:hasMember <https://eve.example/#me>.`
const REMOTE = '<#g> a vcard:Group; vcard:hasMember <https://dan.example/#me>.'

describe('WAC §5 / §7.2 group members', () => {
  const m = groupMembers(GROUP, quadsOf(TEAM, DOC))

  test('vcard:hasMember WebIDs, relative ones resolved against the group document', () => {
    expect([...m.webids].sort()).toEqual(['https://bob.example/card#me', 'https://carol.example/#me', `${POD}/profile/card#me`])
  })
  test('key members: relative and absolute cert:key, did:key IRIs, keys of named members', () => {
    expect([...m.keys].sort()).toEqual(['https://carol.example/keys#c', 'https://iama.star/love/me/key#i', `${POD}/keys/k1#k`, DID].sort())
  })
  test('members of another group in the same document are not members', () => {
    expect(m.webids.has('https://eve.example/#me')).toBe(false)
    expect([...groupMembers(`${DOC}#ops`, quadsOf(TEAM, DOC)).webids]).toEqual(['https://eve.example/#me'])
  })
  test('a group the document does not describe has no members', () => {
    const none = groupMembers(`${DOC}#nobody`, quadsOf(TEAM, DOC))
    expect([none.webids.size, none.keys.size]).toEqual([0, 0])
  })
  test.each([
    [GROUP, DOC],
    [DOC, DOC],
    ['https://x.example/a/b#c#d', 'https://x.example/a/b'],
  ])('the document of %s is %s', (g, d) => {
    expect(groupDocumentUrl(g)).toBe(d)
  })
})

describe('caching group resolver', () => {
  function setup(opts: { maxEntries?: number; ttlMs?: number; fail?: Set<string> } = {}) {
    const docs: Record<string, Quad[]> = { [DOC]: quadsOf(TEAM, DOC), [REMOTE_DOC]: quadsOf(REMOTE, REMOTE_DOC) }
    const loads: string[] = []
    const errors: string[] = []
    const clock = { t: 1_000 }
    const isMember = makeGroupResolver(
      async url => {
        loads.push(url)
        if (opts.fail?.has(url)) throw new HttpError(502, 'fetch_failed', 'group document unreachable')
        const q = docs[url]
        if (!q) throw new HttpError(404, 'not_found', 'no such group document')
        return q
      },
      { maxEntries: opts.maxEntries ?? 10, ttlMs: opts.ttlMs ?? 60_000, now: () => clock.t, onError: g => errors.push(g) },
    )
    return { isMember, loads, errors, clock }
  }
  const web = (webid: string): Requester => ({ webid: webid as WebId, keys: [] })
  const keyed = (...keys: string[]): Requester => ({ keys })

  test.each<[string, string, Requester, boolean]>([
    ['a local WebID member', GROUP, web('https://bob.example/card#me'), true],
    ['a non-member', GROUP, web('https://mallory.example/#me'), false],
    ['a key member', GROUP, keyed(`${POD}/keys/k1#k`), true],
    ['a did:key member by its verification-method id', GROUP, keyed(`${DID}#z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp`), true],
    ['anonymous', GROUP, { keys: [] }, false],
    ['a remote group member', `${REMOTE_DOC}#g`, web('https://dan.example/#me'), true],
    ['a remote group non-member', `${REMOTE_DOC}#g`, web('https://bob.example/card#me'), false],
  ])('%s', async (_rule, group, who, expected) => {
    expect(await setup().isMember(group, who)).toBe(expected)
  })

  test('loads the group document (IRI without fragment) once within the TTL', async () => {
    const s = setup({ ttlMs: 1000 })
    await s.isMember(GROUP, web('https://bob.example/card#me'))
    await s.isMember(GROUP, web('https://mallory.example/#me'))
    expect(s.loads).toEqual([DOC])
    s.clock.t += 1000
    await s.isMember(GROUP, web('https://bob.example/card#me'))
    expect(s.loads).toEqual([DOC, DOC])
  })

  test('concurrent lookups share one load', async () => {
    const s = setup()
    await Promise.all([1, 2, 3].map(() => s.isMember(GROUP, web('https://bob.example/card#me'))))
    expect(s.loads).toEqual([DOC])
  })

  test('the cache is bounded: the least recently used group is evicted', async () => {
    const s = setup({ maxEntries: 1 })
    await s.isMember(GROUP, web('x'))
    await s.isMember(`${REMOTE_DOC}#g`, web('x'))
    await s.isMember(GROUP, web('x'))
    expect(s.loads).toEqual([DOC, REMOTE_DOC, DOC])
  })

  test('a failed load makes the group match no one, is reported, and is not cached', async () => {
    const s = setup({ fail: new Set([REMOTE_DOC]) })
    expect(await s.isMember(`${REMOTE_DOC}#g`, web('https://dan.example/#me'))).toBe(false)
    expect(await s.isMember(`${REMOTE_DOC}#g`, web('https://dan.example/#me'))).toBe(false)
    expect(s.loads).toEqual([REMOTE_DOC, REMOTE_DOC])
    expect(s.errors).toEqual([`${REMOTE_DOC}#g`, `${REMOTE_DOC}#g`])
  })
})

describe('caching group resolver: forgetting a changed document', () => {
  test('forget(document) drops every group of that document, and only that document', async () => {
    const loads: string[] = []
    const team = quadsOf(TEAM, DOC)
    const isMember = makeGroupResolver(
      async url => {
        loads.push(url)
        return url === DOC ? team : quadsOf(REMOTE, REMOTE_DOC)
      },
      { maxEntries: 10, ttlMs: 60_000, now: () => 0 },
    )
    const bob: Requester = { webid: 'https://bob.example/card#me' as WebId, keys: [] }
    await isMember(GROUP, bob)
    await isMember(`${DOC}#ops`, bob)
    await isMember(`${REMOTE_DOC}#g`, bob)
    expect(loads).toEqual([DOC, REMOTE_DOC])
    isMember.forget(DOC)
    await isMember(GROUP, bob)
    await isMember(`${DOC}#ops`, bob)
    await isMember(`${REMOTE_DOC}#g`, bob)
    expect(loads).toEqual([DOC, REMOTE_DOC, DOC])
  })

  test('forget during a load: the next lookup loads the document again', async () => {
    const loads: string[] = []
    let finish!: () => void
    const slow = new Promise<void>(r => {
      finish = r
    })
    const isMember = makeGroupResolver(
      async url => {
        loads.push(url)
        if (loads.length === 1) await slow
        return quadsOf(TEAM, DOC)
      },
      { maxEntries: 10, ttlMs: 60_000, now: () => 0 },
    )
    const pending = isMember(GROUP, { keys: [] })
    isMember.forget(`${DOC}#devs`)
    finish()
    await pending
    await isMember(GROUP, { keys: [] })
    expect(loads).toEqual([DOC, DOC])
  })
})
