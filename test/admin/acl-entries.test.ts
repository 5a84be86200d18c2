// The share pages' ACL document: every kind of subject and scope written by aclTurtle is read back by
// the pod's own ACL parser as the person chose it (WAC §5: one authorization per entry).

import { describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import {
  AUTHENTICATED,
  FOAF_AGENT,
  aclTurtle,
  appsText,
  clientFieldProblem,
  givesOwnerControl,
  onlyThroughApp,
  type Entry,
} from '../../src/admin/acl-entries.ts'
import { parseAclDocument } from '../../src/policy/acl-document.ts'
import { unrepresentedStatements } from '../../src/admin/acl-leftovers.ts'
import type { AclCondition } from '../../src/policy/acl-conditions.ts'

const FOLDER = 'http://localhost:4700/projects/'
const ACL = `${FOLDER}.acl`

const entry = (e: Partial<Entry> & Pick<Entry, 'kind' | 'value'>): Entry => ({
  modes: ['read'],
  thisItem: true,
  inside: false,
  origins: [],
  conditions: [],
  ...e,
})

function written(entries: readonly Entry[]) {
  const quads = new Parser({ baseIRI: ACL }).parse(aclTurtle(FOLDER, entries)) as Quad[]
  return parseAclDocument(quads, ACL).sort((a, b) => a.id.localeCompare(b.id))
}

describe('aclTurtle, read back by the ACL parser', () => {
  test.each([
    ['a WebID', entry({ kind: 'agent', value: 'https://bob.example/profile/card#me' }), { agents: ['https://bob.example/profile/card#me'] }],
    ['the public', entry({ kind: 'public', value: FOAF_AGENT }), { agentClasses: [FOAF_AGENT] }],
    ['anyone signed in', entry({ kind: 'authenticated', value: AUTHENTICATED }), { agentClasses: [AUTHENTICATED] }],
    ['a group', entry({ kind: 'group', value: 'https://bob.example/groups#friends' }), { agentGroups: ['https://bob.example/groups#friends'] }],
    ['a key by URL', entry({ kind: 'key', value: 'https://bob.example/keys/laptop#key' }), { keys: ['https://bob.example/keys/laptop#key'] }],
  ] as const)('%s', (_what, e, subject) => {
    const [auth] = written([e])
    expect(auth).toMatchObject({ agents: [], agentClasses: [], agentGroups: [], keys: [], ...subject })
  })

  test('"this folder only", "only things inside" and "this folder and everything inside"', () => {
    const [only, inside, both] = written([
      entry({ kind: 'public', value: FOAF_AGENT, thisItem: true, inside: false }),
      entry({ kind: 'public', value: FOAF_AGENT, thisItem: false, inside: true }),
      entry({ kind: 'public', value: FOAF_AGENT, thisItem: true, inside: true }),
    ])
    expect([only!.accessTo, only!.default]).toEqual([[FOLDER], []])
    expect([inside!.accessTo, inside!.default]).toEqual([[], [FOLDER]])
    expect([both!.accessTo, both!.default]).toEqual([[FOLDER], [FOLDER]])
  })

  test('apps by origin and every mode', () => {
    const [auth] = written([
      entry({ kind: 'agent', value: 'https://bob.example/profile/card#me', modes: ['read', 'append', 'write', 'control'], origins: ['https://app.example'] }),
    ])
    expect(auth!.origins).toEqual(['https://app.example'])
    expect([...auth!.modes].sort()).toEqual(['append', 'control', 'read', 'write'])
  })

  test('a value with characters Turtle forbids in an IRI cannot break out of it', () => {
    const auths = written([entry({ kind: 'agent', value: 'https://bob.example/x> ; acl:mode acl:Control ; <y' })])
    expect(auths).toHaveLength(1)
    expect([...auths[0]!.modes]).toEqual(['read'])
  })
})

describe("the owner's Control of this item (both share pages ask before it goes)", () => {
  const OWNER = 'http://localhost:4700/profile/card#me'
  test.each([
    ['the owner, with Control, on this item', entry({ kind: 'agent', value: OWNER, modes: ['read', 'control'] }), true],
    ['the public, with Control, on this item', entry({ kind: 'public', value: FOAF_AGENT, modes: ['control'] }), true],
    ['anyone signed in, with Control, on this item', entry({ kind: 'authenticated', value: AUTHENTICATED, modes: ['control'] }), true],
    ['the owner, with Control, only on things inside', entry({ kind: 'agent', value: OWNER, modes: ['control'], thisItem: false, inside: true }), false],
    ['the owner without Control', entry({ kind: 'agent', value: OWNER, modes: ['read', 'write'] }), false],
    ['someone else with Control', entry({ kind: 'agent', value: 'https://bob.example/profile/card#me', modes: ['control'] }), false],
    [
      'the owner, with Control, only through an app (the dashboard has no client id)',
      entry({ kind: 'agent', value: OWNER, modes: ['control'], conditions: [onlyThroughApp('https://app.example/id')] }),
      false,
    ],
  ] as const)('%s → %p', (_what, e, gives) => {
    expect(givesOwnerControl(e, OWNER)).toBe(gives)
  })
})

describe('WAC 1.1 ED §4.4 conditions in the share pages', () => {
  const BOB = 'https://bob.example/profile/card#me'
  const conditions: [string, AclCondition][] = [
    ['only through an app', onlyThroughApp('https://app.example/id')],
    ['a client group and class', { kind: 'client', members: [], groups: ['https://bob.example/apps#trusted'], classes: [FOAF_AGENT] }],
    ['an issuer condition', { kind: 'issuer', members: ['https://idp.example'], groups: ['https://bob.example/idps#g'], classes: [] }],
    ['a condition of a type the pod does not understand', { kind: 'unknown', type: 'https://example.org/terms#TimeCondition' }],
    ['a condition without a type', { kind: 'unknown' }],
  ]
  test.each(conditions)('%s is written and read back as it was, and counts as shown (nothing to drop)', (_what, condition) => {
    const e = entry({ kind: 'agent', value: BOB, conditions: [condition] })
    const [auth] = written([e])
    expect(auth!.conditions).toEqual([condition])
    const quads = new Parser({ baseIRI: ACL }).parse(aclTurtle(FOLDER, [e])) as Quad[]
    expect(unrepresentedStatements(quads, ACL, FOLDER).count).toBe(0)
  })
  test("an unknown condition's own statements are listed as dropped; its type stays, so it still never applies", () => {
    const quads = new Parser({ baseIRI: ACL }).parse(`@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix ex: <https://example.org/terms#>.
      <#r> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <./>; acl:mode acl:Read; acl:condition [ a ex:TimeCondition; ex:before "2030" ].`) as Quad[]
    expect(unrepresentedStatements(quads, ACL, FOLDER).statements).toEqual(['[] <https://example.org/terms#before> "2030".'])
  })
  test('the listing says what a condition allows', () => {
    expect(appsText(entry({ kind: 'agent', value: BOB }))).toBe('any app')
    expect(appsText(entry({ kind: 'agent', value: BOB, origins: ['https://app.example'], conditions: [onlyThroughApp('https://app.example/id')] }))).toBe(
      'origin https://app.example; only through app https://app.example/id',
    )
  })
  test.each<[string, Entry['kind'], string | undefined]>([
    ['', 'public', undefined],
    ['https://app.example/id', 'agent', undefined],
    ['app.example', 'agent', "Only through this app: enter the app's client identifier, a URL like https://app.example/id"],
    ['did:key:z6Mk', 'agent', "Only through this app: enter the app's client identifier, a URL like https://app.example/id"],
    ['https://app.example/id', 'public', 'Only through this app: only for a person (WebID)'],
  ])('"only through this app" %p for %s → %p', (value, kind, problem) => {
    expect(clientFieldProblem(value, kind)).toBe(problem)
  })
})
