// An app the owner limited to some folders: what the one decider leaves it, and how folders are named.

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { folderPathOf, parseFolderScopes, readAccessChoice, scopeModes, withinAppScope } from '../../src/policy/app-scope.ts'
import type { AccessDecision } from '../../src/policy/access-decision.ts'
import type { AccessMode } from '../../src/policy/access-modes.ts'
import { HttpError } from '../../src/http/errors.ts'
import { BASE, openAccessPod, type AccessPod } from './access-fixture.ts'
import type { Principal } from '../../src/auth/principal.ts'
import type { ClientId, WebId } from '../../src/account/ids.ts'

const code = (fn: () => unknown) => {
  try {
    fn()
    return 'none'
  } catch (e) {
    return e instanceof HttpError ? `${e.status} ${e.code}` : String(e)
  }
}

describe('folderPathOf: a folder as the owner names it → its stored path', () => {
  test.each([
    ['/photos/', '/photos/'],
    ['/photos', '/photos/'],
    ['  /photos/  ', '/photos/'],
    ['/Holiday Photos/', '/Holiday%20Photos/'],
    ['/Holiday%20Photos/', '/Holiday%20Photos/'],
    ['/Ünïcode & spaces/', '/%C3%9Cn%C3%AFcode%20&%20spaces/'],
    ['/100% done/', '/100%25%20done/'],
    ['/a+b/', '/a+b/'],
    ['/a%23b%3Fc/', '/a%23b%3Fc/'],
    // typed as read: # and ? are part of the name, never a fragment or a query that would cut it short
    ['/a#b?c%d+e/', '/a%23b%3Fc%25d+e/'],
    ['/Trips #2/', '/Trips%20%232/'],
    [`${BASE}/photos/2026/`, '/photos/2026/'],
  ])('%s → %s', (input, path) => {
    expect(folderPathOf(input, BASE)).toBe(path)
  })

  test.each([
    ['', '400 invalid_scope'],
    ['photos/', '400 invalid_scope'],
    ['https://elsewhere.example/photos/', '400 invalid_scope'],
    ['/a/../b/', '400 invalid_scope'],
    ['/a//b/', '400 invalid_scope'],
  ])('%p is refused: %s', (input, expected) => {
    expect(code(() => folderPathOf(input, BASE))).toBe(expected)
  })
})

describe('parseFolderScopes', () => {
  test('each folder once, the widest right winning', () => {
    expect(
      parseFolderScopes(
        [
          { path: '/a/', right: 'read' },
          { path: '/a', right: 'write' },
          { path: '/a/', right: 'read' },
        ],
        BASE,
      ),
    ).toEqual([{ path: '/a/', right: 'write' }])
  })
  test('no folder, an unknown right, or more than 50 folders → 400 invalid_scope', () => {
    expect(code(() => parseFolderScopes([], BASE))).toBe('400 invalid_scope')
    expect(code(() => parseFolderScopes([{ path: '/a/', right: 'control' }], BASE))).toBe('400 invalid_scope')
    expect(
      code(() =>
        parseFolderScopes(
          Array.from({ length: 51 }, (_, i) => ({ path: `/f${i}/`, right: 'read' })),
          BASE,
        ),
      ),
    ).toBe('400 invalid_scope')
  })
})

describe('readAccessChoice: the form of the consent page and of the dashboard without script', () => {
  test('no choice at all (a form from before scopes) and "full" are full access', () => {
    expect(readAccessChoice({ decision: 'approve' }, BASE)).toBeUndefined()
    expect(readAccessChoice({ access: 'full', folder: '/a/', right: 'read' }, BASE)).toBeUndefined()
  })
  test('folders in pairs with their rights, "Not given" left out, the typed one added', () => {
    expect(readAccessChoice({ access: 'folders', folder: ['/a/', '/b/'], right: ['read', 'none'], new_folder: '/Été/', new_right: 'write' }, BASE)).toEqual([
      { path: '/a/', right: 'read' },
      { path: '/%C3%89t%C3%A9/', right: 'write' },
    ])
  })
  test('an altered form (folders and rights unpaired) or an unknown access → 400 invalid_request', () => {
    expect(code(() => readAccessChoice({ access: 'folders', folder: ['/a/', '/b/'], right: 'read' }, BASE))).toBe('400 invalid_request')
    expect(code(() => readAccessChoice({ access: 'some' }, BASE))).toBe('400 invalid_request')
  })
  test('"Only confirm who I am" is no folders; "only these folders" with none given means the same, never a refusal', () => {
    expect(readAccessChoice({ access: 'identity', folder: '/a/', right: 'write' }, BASE)).toEqual([])
    expect(readAccessChoice({ access: 'folders', folder: ['/a/', '/b/'], right: ['none', 'none'], new_folder: '  ' }, BASE)).toEqual([])
    expect(readAccessChoice({ access: 'folders' }, BASE)).toEqual([])
  })
  test('a form without the choice gets what the page proposed: full, or only who the owner is', () => {
    expect(readAccessChoice({ decision: 'approve' }, BASE, { absent: 'identity' })).toEqual([])
    expect(readAccessChoice({ decision: 'approve', access: 'full' }, BASE, { absent: 'identity' })).toBeUndefined()
  })
  test('a script\'s credential (identity: false): no folder is 400 invalid_scope, "identity" is not a choice (400 invalid_request)', () => {
    expect(code(() => readAccessChoice({ access: 'folders', folder: '/a/', right: 'none' }, BASE, { identity: false }))).toBe('400 invalid_scope')
    expect(code(() => readAccessChoice({ access: 'identity' }, BASE, { identity: false }))).toBe('400 invalid_request')
  })
})

const decision = (target: string, modes: AccessMode[], publicModes: AccessMode[] = []): AccessDecision => ({
  target: BASE + target,
  modes: new Set(modes),
  publicModes: new Set(publicModes),
  grounds: [],
  reasons: [],
  links: [],
  acl: { aclUrl: `${BASE}/.acl`, governs: `${BASE}/`, inherited: true },
})
const ALL: AccessMode[] = ['read', 'write', 'append', 'control']

describe('withinAppScope: the intersection with what the rules allow', () => {
  const folders = [
    { path: '/photos/', right: 'write' as const },
    { path: '/notes/', right: 'read' as const },
  ]
  test('read and write in a write folder, never Control', () => {
    expect([...withinAppScope(decision('/photos/a.jpg', ALL), folders, BASE).modes].sort()).toEqual(['append', 'read', 'write'])
  })
  test('read only in a read folder; nothing elsewhere, with a reason and what the rules allowed', () => {
    expect([...withinAppScope(decision('/notes/n.ttl', ALL), folders, BASE).modes]).toEqual(['read'])
    const d = withinAppScope(decision('/private/x', ALL), folders, BASE)
    expect(d.modes.size).toBe(0)
    expect([...d.outsideAppScope!.modes].sort()).toEqual([...ALL].sort())
    expect(d.reasons.at(-1)).toBe('the owner allowed this app only to read and write /photos/, to read /notes/')
  })
  test('never more than the rules allow', () => {
    expect([...withinAppScope(decision('/photos/a.jpg', ['read']), folders, BASE).modes]).toEqual(['read'])
    expect(withinAppScope(decision('/photos/a.jpg', ['read']), folders, BASE).outsideAppScope).toBeUndefined()
  })
  test('an ACL is out of every scope, even inside the folder', () => {
    expect(withinAppScope(decision('/photos/.acl', ALL), folders, BASE).modes.size).toBe(0)
    expect(scopeModes(folders, '/photos/a.jpg.acl').size).toBe(0)
  })
  test('a folder is not a prefix of its namesakes: /photos/ does not hold /photos-old/', () => {
    expect(scopeModes(folders, '/photos-old/a').size).toBe(0)
  })
  test('what is public stays public', () => {
    expect([...withinAppScope(decision('/profile/card', ALL, ['read']), folders, BASE).modes]).toEqual(['read'])
  })
  test('no folders ("Only confirm who I am"): nothing but what is public, saying so', () => {
    const d = withinAppScope(decision('/photos/a.jpg', ALL), [], BASE)
    expect(d.modes.size).toBe(0)
    expect(d.outsideAppScope!.allowed).toBe('to confirm who the owner is, nothing beyond what is public')
    expect([...withinAppScope(decision('/profile/card', ALL, ['read']), [], BASE).modes]).toEqual(['read'])
  })
})

describe("the decider limits only the owner's WebID through a limited app", () => {
  let pod: AccessPod
  const OWNER = `${BASE}/profile/card#me` as WebId
  const BOB = 'https://bob.example/profile#me' as WebId
  const APP = 'https://app.example/id' as ClientId
  const as = (webid: WebId, clientId?: ClientId): Principal => ({ webid, keys: [], scheme: 'DPoP', ...(clientId ? { clientId } : {}) })
  beforeAll(async () => {
    pod = await openAccessPod()
    await pod.seed(
      '/shared/.acl',
      `<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.
<#bob> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read.`,
    )
    await pod.deps.appScopes.set(APP, [{ path: '/photos/', right: 'read' }], Date.now())
  })
  afterAll(() => pod?.close())
  const modes = async (p: Principal, path: string) => [...(await pod.deps.decider.decide(p, BASE + path, undefined)).modes].sort()

  test('the owner through the limited app: nothing in /shared/; through another app or the dashboard: everything', async () => {
    expect(await modes(as(OWNER, APP), '/shared/x')).toEqual([])
    expect(await modes(as(OWNER, 'https://other.example/id' as ClientId), '/shared/x')).toEqual([...ALL].sort())
    expect(await modes({ webid: OWNER, keys: [], scheme: 'session' }, '/shared/x')).toEqual([...ALL].sort())
  })
  test("another person using an app of the same client id is not limited by the owner's choice", async () => {
    expect(await modes(as(BOB, APP), '/shared/x')).toEqual(['read'])
  })
  test('given full access again, the limit is gone on the next decision', async () => {
    await pod.deps.appScopes.set(APP, undefined, Date.now())
    expect(await modes(as(OWNER, APP), '/shared/x')).toEqual([...ALL].sort())
  })
  test('a limit survives a restart of the pod (it is stored)', async () => {
    await pod.deps.appScopes.set(APP, [{ path: '/photos/', right: 'write' }], Date.now())
    const { makeAppScopes } = await import('../../src/account/app-scopes.ts')
    const fresh = makeAppScopes(pod.store, BASE, pod.deps.withResourceLocks)
    expect(await fresh.foldersOf(APP)).toEqual([{ path: '/photos/', right: 'write' }])
  })
})
