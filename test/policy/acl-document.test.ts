import { describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import { HttpError } from '../../src/http/errors.ts'
import { assertOwnerKeepsControl, grantsControlTo, parseAclDocument, validateAclDocument } from '../../src/policy/acl-document.ts'

const POD = 'https://pod.example'
const OWNER = `${POD}/profile/card#me`
const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.
@prefix cert: <http://www.w3.org/ns/auth/cert#>. @prefix ex: <https://example.org/terms#>.\n`
const quadsOf = (ttl: string, base: string) => new Parser({ baseIRI: base }).parse(PREFIXES + ttl)
const parse = (ttl: string, aclUrl = `${POD}/a/.acl`) => parseAclDocument(quadsOf(ttl, aclUrl), aclUrl)

function thrown(f: () => unknown): HttpError {
  try {
    f()
  } catch (e) {
    if (e instanceof HttpError) return e
    throw e
  }
  throw new Error('expected an HttpError')
}

describe('WAC §5 parsing an authorization', () => {
  test('reads every field, resolving relative IRIs against the ACL URL', () => {
    const [a, ...rest] = parse(`<#r> a acl:Authorization; acl:accessTo <./>, <x>; acl:default <./>;
      acl:agent </profile/card#me>; acl:agentClass foaf:Agent; acl:agentGroup </groups#g>;
      acl:origin <https://app.example>; acl:mode acl:Read, acl:Control.`)
    expect(rest).toEqual([])
    expect(a!.id).toBe(`${POD}/a/.acl#r`)
    expect(a!.accessTo).toEqual([`${POD}/a/`, `${POD}/a/x`])
    expect(a!.default).toEqual([`${POD}/a/`])
    expect(a!.agents).toEqual([OWNER])
    expect(a!.agentClasses).toEqual(['http://xmlns.com/foaf/0.1/Agent'])
    expect(a!.agentGroups).toEqual([`${POD}/groups#g`])
    expect(a!.origins).toEqual(['https://app.example'])
    expect([...a!.modes].sort()).toEqual(['control', 'read'])
  })

  test.each<[string, string, string[]]>([
    ['Write implies Append', 'acl:Write', ['append', 'write']],
    ['Append does not imply Write', 'acl:Append', ['append']],
    ['Control does not imply Read', 'acl:Control', ['control']],
    ['unknown modes are ignored, never widen', 'acl:Read, ex:Everything, acl:Sudo', ['read']],
  ])('%s', (_rule, modes, expected) => {
    const [a] = parse(`<#r> a acl:Authorization; acl:accessTo <x>; acl:agentClass foaf:Agent; acl:mode ${modes}.`)
    expect([...a!.modes].sort() as string[]).toEqual(expected)
  })

  test.each<[string, string]>([
    ['without type acl:Authorization', '<#r> acl:accessTo <x>; acl:agentClass foaf:Agent; acl:mode acl:Read.'],
    ['with another type only', '<#r> a ex:Rule; acl:accessTo <x>; acl:agentClass foaf:Agent; acl:mode acl:Read.'],
    ['without accessTo or default', '<#r> a acl:Authorization; acl:agentClass foaf:Agent; acl:mode acl:Read.'],
    ['without mode', '<#r> a acl:Authorization; acl:accessTo <x>; acl:agentClass foaf:Agent.'],
    ['with unknown modes only', '<#r> a acl:Authorization; acl:accessTo <x>; acl:agentClass foaf:Agent; acl:mode ex:Read.'],
    ['without subject', '<#r> a acl:Authorization; acl:accessTo <x>; acl:mode acl:Read.'],
    ['with an origin but no agent', '<#r> a acl:Authorization; acl:accessTo <x>; acl:origin <https://app.example>; acl:mode acl:Read.'],
    ['with a blank agent that has no key', '<#r> a acl:Authorization; acl:accessTo <x>; acl:agent [ ex:name "x" ]; acl:mode acl:Read.'],
    ['with a literal target', '<#r> a acl:Authorization; acl:accessTo "x"; acl:agentClass foaf:Agent; acl:mode acl:Read.'],
  ])('an authorization %s is not applicable', (_rule, ttl) => {
    expect(parse(ttl)).toEqual([])
  })

  test('blank-node authorizations are read and named by their label', () => {
    const auths = parse('[] a acl:Authorization; acl:accessTo <x>; acl:agentClass foaf:Agent; acl:mode acl:Read.')
    expect(auths).toHaveLength(1)
    expect(auths[0]!.id).toStartWith('_:')
  })

  test('a literal acl:origin is still a restriction, never dropped', () => {
    const [a] = parse('<#r> a acl:Authorization; acl:accessTo <x>; acl:agentClass foaf:Agent; acl:origin "https://app.example/"; acl:mode acl:Read.')
    expect(a!.origins).toEqual(['https://app.example'])
  })
})

describe('HttpSig draft key documents key subjects', () => {
  const [a] = parse(`<#k> a acl:Authorization; acl:accessTo <doc>; acl:mode acl:Read;
    acl:agent [ cert:key </keys/2019-09-02#k1> ], [ cert:key <https://iama.star/love/me/key#i> ],
      <did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp>,
      <did:key:zDnaerx9CtbPJ1q36T5Ln5wYt3MQYeGRG5ehnPAmxcf5mDZpv#zDnaerx9CtbPJ1q36T5Ln5wYt3MQYeGRG5ehnPAmxcf5mDZpv>,
      <https://bob.example/card#me>.
    <https://bob.example/card#me> cert:key <https://bob.example/keys#b>.`)

  test('a relative cert:key resolves against the ACL URL', () => expect(a!.keys).toContain(`${POD}/keys/2019-09-02#k1`))
  test('an absolute cert:key is kept', () => expect(a!.keys).toContain('https://iama.star/love/me/key#i'))
  test('a did:key agent is a key, not a WebID', () => {
    expect(a!.keys).toContain('did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp')
    expect(a!.agents).not.toContain('did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp')
  })
  test('a did:key verification-method id is stored as its did:key', () => {
    expect(a!.keys).toContain('did:key:zDnaerx9CtbPJ1q36T5Ln5wYt3MQYeGRG5ehnPAmxcf5mDZpv')
  })
  test('a named agent with cert:key is both a WebID and a key holder', () => {
    expect(a!.agents).toEqual(['https://bob.example/card#me'])
    expect(a!.keys).toContain('https://bob.example/keys#b')
  })
  test('an authorization whose only subject is a key is applicable', () => {
    expect(parse('<#r> a acl:Authorization; acl:accessTo <x>; acl:mode acl:Read; acl:agent [ cert:key <k#1> ].')).toHaveLength(1)
  })
})

describe('ACL validation before a write', () => {
  const governed = `${POD}/a/`
  const aclUrl = `${POD}/a/.acl`
  test.each<[string, string, string]>([
    ['an empty document', '', 'no applicable acl:Authorization'],
    ['only non-applicable authorizations', '<#r> a acl:Authorization; acl:accessTo <./>; acl:mode acl:Read.', 'no applicable acl:Authorization'],
    [
      'authorizations naming only other resources',
      '<#r> a acl:Authorization; acl:accessTo </other>; acl:agentClass foaf:Agent; acl:mode acl:Read.',
      'names the resource it governs',
    ],
  ])('rejects %s with 422 invalid_acl', (_rule, ttl, message) => {
    const err = thrown(() => validateAclDocument(quadsOf(ttl, aclUrl), aclUrl, governed))
    expect(err.status).toBe(422)
    expect(err.code).toBe('invalid_acl')
    expect(err.description).toContain(message)
  })

  test('acl:default does not name a non-container (it has no members to inherit)', () => {
    const url = `${POD}/a/b`
    const ttl = '<#r> a acl:Authorization; acl:default <b>; acl:agentClass foaf:Agent; acl:mode acl:Read.'
    const err = thrown(() => validateAclDocument(quadsOf(ttl, `${url}.acl`), `${url}.acl`, url))
    expect([err.status, err.code]).toEqual([422, 'invalid_acl'])
  })

  test.each<[string, string]>([
    ['accessTo the container', '<#r> a acl:Authorization; acl:accessTo <./>; acl:agent </profile/card#me>; acl:mode acl:Read.'],
    ['default of the container', '<#r> a acl:Authorization; acl:default <./>; acl:agent </profile/card#me>; acl:mode acl:Read.'],
  ])('accepts an authorization with %s and returns the parsed authorizations', (_rule, ttl) => {
    expect(validateAclDocument(quadsOf(ttl, aclUrl), aclUrl, governed)).toHaveLength(1)
  })
})

describe('owner lock-out protection (WAC §5 modes per method loss of control)', () => {
  const root = `${POD}/`
  const rootAcl = `${POD}/.acl`
  const check = (ttl: string) => assertOwnerKeepsControl(quadsOf(ttl, rootAcl), rootAcl, root, OWNER)

  test('the §6.6 example root ACL keeps the owner in control', () => {
    expect(() =>
      check(`<#owner> a acl:Authorization; acl:agent </profile/card#me>;
      acl:accessTo </>; acl:default </>; acl:mode acl:Read, acl:Write, acl:Control.`),
    ).not.toThrow()
  })

  test.each<[string, string]>([
    ['dropping Control', '<#o> a acl:Authorization; acl:agent </profile/card#me>; acl:accessTo </>; acl:mode acl:Read, acl:Write.'],
    ['giving Control to someone else', '<#o> a acl:Authorization; acl:agent <https://eve.example/#me>; acl:accessTo </>; acl:mode acl:Control.'],
    ['giving Control only as a default', '<#o> a acl:Authorization; acl:agent </profile/card#me>; acl:default </>; acl:mode acl:Control.'],
    ['giving Control only through a group', '<#o> a acl:Authorization; acl:agentGroup </g#g>; acl:accessTo </>; acl:mode acl:Control.'],
    ['a non-applicable Control rule', '<#o> acl:agent </profile/card#me>; acl:accessTo </>; acl:mode acl:Control.'],
    ['an empty root ACL', ''],
  ])('refuses %s with 409 owner_lockout', (_rule, ttl) => {
    const err = thrown(() => check(ttl))
    expect(err.status).toBe(409)
    expect(err.code).toBe('owner_lockout')
    expect(err.description).toContain('acl:Control')
  })

  test.each<[string, string, boolean]>([
    ['the owner as agent', 'acl:agent </profile/card#me>', true],
    ['every agent', 'acl:agentClass foaf:Agent', true],
    ['every authenticated agent', 'acl:agentClass acl:AuthenticatedAgent', true],
    ['another agent', 'acl:agent <https://eve.example/#me>', false],
    ['a key', 'acl:agent [ cert:key </keys#k> ]', false],
  ])('grantsControlTo counts Control given to %s', (_rule, subject, expected) => {
    const auths = parseAclDocument(quadsOf(`<#o> a acl:Authorization; ${subject}; acl:accessTo </>; acl:mode acl:Control.`, rootAcl), rootAcl)
    expect(grantsControlTo(auths, OWNER, root)).toBe(expected)
  })
})
