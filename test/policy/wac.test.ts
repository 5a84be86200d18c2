import { describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import type { WebId } from '../../src/account/ids.ts'
import { HttpError } from '../../src/http/errors.ts'
import { parseAclDocument } from '../../src/policy/acl-document.ts'
import { ACCESS_MODES, type AccessMode } from '../../src/policy/access-modes.ts'
import { parentContainerOf } from '../../src/policy/containment.ts'
import { aclOf as aclUrlFor, governedBy as governedUrlFor } from '../../src/store/acl-names.ts'
import { allowedModes, findEffectiveAcl, publicModes, type AccessContext, type AclLoader, type Requester } from '../../src/policy/wac.ts'

const POD = 'https://pod.example'
const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix cert: <http://www.w3.org/ns/auth/cert#>. @prefix ex: <https://example.org/terms#>.\n`
const ALICE: Requester = { webid: `${POD}/profile/card#me` as WebId, keys: [] }
const BOB: Requester = { webid: 'https://bob.example/card#me' as WebId, keys: [] }
const ANON: Requester = { keys: [] }
const keyHolder = (...keys: string[]): Requester => ({ keys })

type Docs = Record<string, string> // ACL path → Turtle

/** Loader over parsed ACLs, counting lookups so tests can see the walk. */
function loaderOf(docs: Docs, asked: string[] = []): AclLoader {
  const parsed = new Map(
    Object.entries(docs).map(([path, ttl]) => {
      const url = POD + path
      return [url, parseAclDocument(new Parser({ baseIRI: url }).parse(PREFIXES + ttl), url)] as const
    }),
  )
  return async url => {
    asked.push(url.slice(POD.length))
    return parsed.get(url)
  }
}

const show = (modes: ReadonlySet<AccessMode>) => ACCESS_MODES.filter(m => modes.has(m)).join(' ')

async function modesOf(docs: Docs, path: string, who: Requester, ctx: Partial<AccessContext> = {}): Promise<string> {
  const effective = await findEffectiveAcl(POD + path, loaderOf(docs))
  const full: AccessContext = { trustedOrigins: [], isGroupMember: async () => false, ...ctx }
  return show(await allowedModes(effective, POD + path, who, full))
}

const rule = (target: string, subject: string, modes: string, extra = '') =>
  `[] a acl:Authorization; ${target}; ${subject}; acl:mode ${modes}${extra ? `; ${extra}` : ''}.\n`

const OWNER_ROOT = rule('acl:accessTo </>; acl:default </>', 'acl:agent </profile/card#me>', 'acl:Read, acl:Write, acl:Control')

describe('WAC §4 effective ACL ACL resource naming and containment', () => {
  test.each<[string, string]>([
    ['/a/b', '/a/b.acl'],
    ['/a/', '/a/.acl'],
    ['/', '/.acl'],
  ])('ACL of %s is %s', (r, acl) => {
    expect(aclUrlFor(POD + r)).toBe(POD + acl)
    expect(governedUrlFor(POD + acl)).toBe(POD + r)
  })
  test.each<[string, string | undefined]>([
    ['/a/b/c', '/a/b/'],
    ['/a/b/', '/a/'],
    ['/a', '/'],
    ['/', undefined],
  ])('parent of %s is %s', (r, p) => {
    expect(parentContainerOf(POD + r)).toBe(p === undefined ? undefined : POD + p)
  })
})

describe('WAC §4 effective ACL effective ACL and inheritance', () => {
  const docs: Docs = { '/.acl': OWNER_ROOT + rule('acl:default </>', 'acl:agentClass foaf:Agent', 'acl:Read') }

  test('a resource three containers deep inherits the root defaults, asking each level on the way', async () => {
    const asked: string[] = []
    const eff = await findEffectiveAcl(`${POD}/a/b/c/d`, loaderOf(docs, asked))
    expect(asked).toEqual(['/a/b/c/d.acl', '/a/b/c/.acl', '/a/b/.acl', '/a/.acl', '/.acl'])
    expect(eff.aclUrl).toBe(`${POD}/.acl`)
    expect(eff.governs).toBe(`${POD}/`)
    expect(eff.inherited).toBe(true)
    expect(await modesOf(docs, '/a/b/c/d', ALICE)).toBe('read write append control')
    expect(await modesOf(docs, '/a/b/c/d', ANON)).toBe('read')
  })

  test('the nearest ancestor ACL wins; others above it are not merged', async () => {
    const withMiddle = { ...docs, '/a/b/.acl': rule('acl:default <./>', 'acl:agent <https://bob.example/card#me>', 'acl:Append') }
    expect(await modesOf(withMiddle, '/a/b/c/d', BOB)).toBe('append')
    expect(await modesOf(withMiddle, '/a/b/c/d', ALICE)).toBe('')
    expect(await modesOf(withMiddle, '/a/x', ALICE)).toBe('read write append control')
  })

  test("a resource's own ACL is effective and not inherited", async () => {
    const own = { ...docs, '/a/b/c/d.acl': rule('acl:accessTo <d>', 'acl:agent <https://bob.example/card#me>', 'acl:Read') }
    const eff = await findEffectiveAcl(`${POD}/a/b/c/d`, loaderOf(own))
    expect([eff.aclUrl, eff.governs, eff.inherited]).toEqual([`${POD}/a/b/c/d.acl`, `${POD}/a/b/c/d`, false])
    expect(await modesOf(own, '/a/b/c/d', BOB)).toBe('read')
    expect(await modesOf(own, '/a/b/c/d', ANON)).toBe('')
  })

  test('acl:accessTo in an ancestor ACL does not apply below it', async () => {
    const onlyRoot = { '/.acl': rule('acl:accessTo </>', 'acl:agentClass foaf:Agent', 'acl:Read, acl:Control') }
    expect(await modesOf(onlyRoot, '/', ANON)).toBe('read control')
    expect(await modesOf(onlyRoot, '/x', ANON)).toBe('')
    expect(await modesOf(onlyRoot, '/a/', ANON)).toBe('')
  })

  test("acl:default in a container's own ACL does not apply to the container itself", async () => {
    const d = { ...docs, '/a/.acl': rule('acl:default <./>', 'acl:agentClass foaf:Agent', 'acl:Write') }
    expect(await modesOf(d, '/a/', ANON)).toBe('')
    expect(await modesOf(d, '/a/x', ANON)).toBe('write append')
    expect(await modesOf(d, '/a/b/c', ANON)).toBe('write append')
  })

  test('an ancestor default naming another container does not apply', async () => {
    const d = { '/.acl': OWNER_ROOT + rule('acl:default </b/>', 'acl:agentClass foaf:Agent', 'acl:Read') }
    expect(await modesOf(d, '/a/x', ANON)).toBe('')
  })

  test('an ACL resource is decided by the ACL of the resource it governs, with Control', async () => {
    expect(await modesOf(docs, '/a/b.acl', ALICE)).toBe('read write append control')
    expect(await modesOf(docs, '/a/b.acl', ANON)).toBe('')
    expect(await modesOf(docs, '/.acl', ALICE)).toBe('read write append control')
    const eff = await findEffectiveAcl(`${POD}/a/.acl`, loaderOf(docs))
    expect(eff.governs).toBe(`${POD}/`)
  })

  test('no ACL up to the root is a 500, never a silent decision', async () => {
    let err: unknown
    try {
      await findEffectiveAcl(`${POD}/a/b`, loaderOf({}))
    } catch (e) {
      err = e
    }
    expect((err as HttpError).status).toBe(500)
  })

  test('asking with an effective ACL found for another resource is refused', async () => {
    const eff = await findEffectiveAcl(`${POD}/a/x`, loaderOf(docs))
    const ctx: AccessContext = { trustedOrigins: [], isGroupMember: async () => false }
    await expect(allowedModes(eff, `${POD}/`, ALICE, ctx)).rejects.toBeInstanceOf(HttpError)
    expect(() => publicModes(eff, 'https://other.example/a/x')).toThrow(HttpError)
  })
})

describe('WAC §6 evaluation subjects', () => {
  const target = 'acl:accessTo </r>'
  test.each<[string, string, Requester, string]>([
    ['acl:agent matches its WebID', 'acl:agent <https://bob.example/card#me>', BOB, 'read'],
    ['acl:agent does not match another WebID', 'acl:agent <https://bob.example/card#me>', ALICE, ''],
    ['acl:agent does not match anonymous', 'acl:agent <https://bob.example/card#me>', ANON, ''],
    ['foaf:Agent matches anonymous', 'acl:agentClass foaf:Agent', ANON, 'read'],
    ['foaf:Agent matches an authenticated agent', 'acl:agentClass foaf:Agent', BOB, 'read'],
    ['AuthenticatedAgent denies anonymous', 'acl:agentClass acl:AuthenticatedAgent', ANON, ''],
    ['AuthenticatedAgent allows a WebID', 'acl:agentClass acl:AuthenticatedAgent', BOB, 'read'],
    ['AuthenticatedAgent allows a key holder', 'acl:agentClass acl:AuthenticatedAgent', keyHolder('https://k.example/k#1'), 'read'],
    ['an unknown agentClass matches nobody', 'acl:agentClass ex:Friends', BOB, ''],
  ])('%s', async (_rule, subject, who, expected) => {
    expect(await modesOf({ '/r.acl': rule(target, subject, 'acl:Read') }, '/r', who)).toBe(expected)
  })
})

describe('HttpSig draft key documents key subjects (cert:key, did:key)', () => {
  const docs: Docs = {
    '/a/.acl':
      rule('acl:default <./>', 'acl:agent [ cert:key <../keys/k1#k> ]', 'acl:Read') +
      rule('acl:default <./>', 'acl:agent [ cert:key <https://iama.star/love/me/key#i> ]', 'acl:Append') +
      rule('acl:default <./>', 'acl:agent <did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp>', 'acl:Write'),
  }
  const DID = 'did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp'
  test.each<[string, Requester, string]>([
    ['a relative cert:key matches its absolute URL', keyHolder(`${POD}/keys/k1#k`), 'read'],
    ['a relative cert:key does not match the relative string', keyHolder('../keys/k1#k'), ''],
    ['an absolute cert:key matches', keyHolder('https://iama.star/love/me/key#i'), 'append'],
    ['a did:key agent matches its holder', keyHolder(DID), 'write append'],
    ['a did:key agent matches its verification-method id', keyHolder(`${DID}#z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp`), 'write append'],
    ['keys add up', keyHolder(`${POD}/keys/k1#k`, DID), 'read write append'],
    ['another key matches nothing', keyHolder(`${POD}/keys/k1#other`), ''],
    ['a WebID alone matches no key rule', BOB, ''],
  ])('%s', async (_rule, who, expected) => {
    expect(await modesOf(docs, '/a/doc', who)).toBe(expected)
  })
})

describe('WAC §6 evaluation agentGroup', () => {
  const LOCAL = `${POD}/groups#friends`
  const REMOTE = 'https://other.example/teams#devs'
  const docs: Docs = {
    '/r.acl': rule('acl:accessTo </r>', `acl:agentGroup <${LOCAL}>`, 'acl:Read') + rule('acl:accessTo </r>', `acl:agentGroup <${REMOTE}>`, 'acl:Write'),
  }
  const members: Record<string, string[]> = { [LOCAL]: [BOB.webid!], [REMOTE]: [BOB.webid!, 'did:key:zX'] }
  const asked: string[] = []
  const isGroupMember = async (g: string, p: Requester) => {
    asked.push(g)
    return (members[g] ?? []).some(m => m === p.webid || p.keys.includes(m))
  }

  test.each<[string, Requester, string]>([
    ['members of a local and a remote group get both rules', BOB, 'read write append'],
    ['a key member of the remote group gets its rule only', keyHolder('did:key:zX'), 'write append'],
    ['a non-member gets nothing', ALICE, ''],
  ])('%s', async (_rule, who, expected) => {
    expect(await modesOf(docs, '/r', who, { isGroupMember })).toBe(expected)
  })

  test('anonymous requests never load group documents', async () => {
    asked.length = 0
    expect(await modesOf(docs, '/r', ANON, { isGroupMember })).toBe('')
    expect(asked).toEqual([])
  })

  test('a group rule adding no new mode is not looked up', async () => {
    asked.length = 0
    const d = { '/r.acl': rule('acl:accessTo </r>', 'acl:agentClass foaf:Agent', 'acl:Read') + docs['/r.acl']!.split('\n')[0] }
    expect(await modesOf(d, '/r', BOB, { isGroupMember })).toBe('read')
    expect(asked).toEqual([])
  })
})

describe('acl:origin (WAC §4.3) acl:origin (pragmatic rule)', () => {
  const docs: Docs = {
    '/r.acl':
      rule('acl:accessTo </r>', 'acl:agent <https://bob.example/card#me>', 'acl:Write', 'acl:origin <https://app.example>, <https://other-app.example:8443>') +
      rule('acl:accessTo </r>', 'acl:agent <https://bob.example/card#me>', 'acl:Read'),
  }
  test.each<[string, string | undefined, string[], string]>([
    ['a listed Origin gets the restricted rule', 'https://app.example', [], 'read write append'],
    ['any listed Origin matches, port included', 'https://other-app.example:8443', [], 'read write append'],
    ['an unlisted Origin loses the restricted rule but keeps unrestricted ones', 'https://evil.example', [], 'read'],
    ['the same host on another port is another origin', 'https://app.example:444', [], 'read'],
    ['the same host over http is another origin', 'http://app.example', [], 'read'],
    ['the opaque origin "null" matches no list', 'null', [], 'read'],
    ['no Origin header ignores acl:origin', undefined, [], 'read write append'],
    ["the pod's own origin is always trusted", POD, [], 'read write append'],
    ['a configured trusted origin is accepted', 'https://admin.example', ['https://admin.example'], 'read write append'],
  ])('%s', async (_rule, origin, trustedOrigins, expected) => {
    expect(await modesOf(docs, '/r', BOB, origin === undefined ? { trustedOrigins } : { origin, trustedOrigins })).toBe(expected)
  })

  test('an origin never grants by itself: the agent must match too', async () => {
    expect(await modesOf(docs, '/r', ALICE, { origin: 'https://app.example' })).toBe('')
  })
})

describe('WAC §5 modes in decisions', () => {
  const one = (modes: string) => ({ '/r.acl': rule('acl:accessTo </r>', 'acl:agentClass foaf:Agent', modes) })
  test.each<[string, string, string]>([
    ['Write implies Append', 'acl:Write', 'write append'],
    ['Append does not give Write', 'acl:Append', 'append'],
    ['Control does not imply Read or Write', 'acl:Control', 'control'],
    ['unknown modes are ignored', 'acl:Read, ex:All', 'read'],
    ['a rule with only unknown modes grants nothing', 'ex:All', ''],
  ])('%s', async (_rule, modes, expected) => {
    expect(await modesOf(one(modes), '/r', ANON)).toBe(expected)
  })

  test.each<[string, string]>([
    ['missing mode', '[] a acl:Authorization; acl:accessTo </r>; acl:agentClass foaf:Agent.'],
    ['missing subject', '[] a acl:Authorization; acl:accessTo </r>; acl:mode acl:Read.'],
    ['missing target', '[] a acl:Authorization; acl:agentClass foaf:Agent; acl:mode acl:Read.'],
    ['missing type', '[] acl:accessTo </r>; acl:agentClass foaf:Agent; acl:mode acl:Read.'],
  ])('an authorization with %s is ignored', async (_rule, ttl) => {
    expect(await modesOf({ '/r.acl': ttl }, '/r', ANON)).toBe('')
  })

  test('modes of several matching rules add up', async () => {
    const d = {
      '/r.acl':
        rule('acl:accessTo </r>', 'acl:agentClass foaf:Agent', 'acl:Read') +
        rule('acl:accessTo </r>', 'acl:agent <https://bob.example/card#me>', 'acl:Control'),
    }
    expect(await modesOf(d, '/r', BOB)).toBe('read control')
  })
})

describe('WAC §6 WAC-Allow public modes', () => {
  const docs: Docs = {
    '/r.acl':
      rule('acl:accessTo </r>', 'acl:agentClass foaf:Agent', 'acl:Read', 'acl:origin <https://app.example>') +
      rule('acl:accessTo </r>', 'acl:agentClass acl:AuthenticatedAgent', 'acl:Write') +
      rule('acl:accessTo </r>', 'acl:agent <https://bob.example/card#me>', 'acl:Control'),
  }
  test('only foaf:Agent rules count, and acl:origin is not applied', async () => {
    const eff = await findEffectiveAcl(`${POD}/r`, loaderOf(docs))
    expect(show(publicModes(eff, `${POD}/r`))).toBe('read')
  })
  test('an ACL resource is public only if its resource gives foaf:Agent Control', async () => {
    const open = { '/r.acl': rule('acl:accessTo </r>', 'acl:agentClass foaf:Agent', 'acl:Control') }
    expect(show(publicModes(await findEffectiveAcl(`${POD}/r.acl`, loaderOf(open)), `${POD}/r.acl`))).toBe('read write append control')
    expect(show(publicModes(await findEffectiveAcl(`${POD}/r.acl`, loaderOf(docs)), `${POD}/r.acl`))).toBe('')
  })
})
