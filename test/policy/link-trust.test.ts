import { describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import { writableByOthers } from '../../src/policy/link-trust.ts'
import { parseAclDocument, type Authorization } from '../../src/policy/acl-document.ts'
import { indexGrants } from '../../src/policy/grants.ts'
import type { GrantData } from '../../src/policy/grant-schema.ts'
import { ACL, BOB, INTEROP, OWNER, POD, grant, inheriting } from './grant-fixture.ts'

// SAI §9.6 Inherited, our rule: links widen a grant only from documents no one but the owner could have
// written, now: no subject but the owner's WebID and no grant may write, append to or control the document,
// write or append to (create in) its container, or control what governs its ACL.

const PREFIXES = '@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>.\n'
const OWNER_ALL = `<#owner> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <./>; acl:default <./>; acl:mode acl:Read, acl:Write, acl:Control.`
const DOC = `${POD}/a/x`

function loader(acls: Record<string, string>) {
  const docs = { '/.acl': OWNER_ALL, ...acls }
  return async (aclUrl: string): Promise<readonly Authorization[] | undefined> => {
    const ttl = docs[aclUrl.slice(POD.length) as keyof typeof docs]
    return ttl === undefined ? undefined : parseAclDocument(new Parser({ baseIRI: aclUrl }).parse(PREFIXES + ttl) as Quad[], aclUrl)
  }
}
const ask = (acls: Record<string, string>, grants: GrantData[] = []) =>
  writableByOthers(DOC, { loadAcl: loader(acls), grants: indexGrants(grants.map((data, i) => ({ iri: `${POD}/g${i}`, data }))), owner: OWNER })

const rule = (subject: string, target: string, modes: string) => `<#r> a acl:Authorization; ${subject}; ${target}; acl:mode ${modes}.`
const AT_DOC = 'acl:accessTo <x>'
const AT_A = 'acl:accessTo <./>'
const DEFAULT_A = 'acl:default <./>'
const ownerDoc = `<#o> a acl:Authorization; acl:agent <${OWNER}>; acl:accessTo <x>; acl:mode acl:Read, acl:Write, acl:Control.\n`

describe('WAC: who else may write the document, create in its container, or control its ACL', () => {
  test.each([
    ['the owner alone (root ACL)', {}, undefined],
    [
      'the owner alone, from one origin only',
      { '/a/x.acl': `${ownerDoc}${rule(`acl:agent <${OWNER}>`, AT_DOC, 'acl:Append')} <#r> acl:origin <https://app.example>.` },
      undefined,
    ],
    ['another WebID may only read the document', { '/a/x.acl': ownerDoc + rule(`acl:agent <${BOB}>`, AT_DOC, 'acl:Read') }, undefined],
    ['another WebID may only read the container', { '/a/.acl': OWNER_ALL + rule(`acl:agent <${BOB}>`, AT_A, 'acl:Read') }, undefined],
    [
      'the public may append to the document',
      { '/a/x.acl': ownerDoc + rule('acl:agentClass foaf:Agent', AT_DOC, 'acl:Append') },
      `${POD}/a/x.acl#r gives http://xmlns.com/foaf/0.1/Agent append on ${DOC}`,
    ],
    [
      'authenticated agents may write below the container',
      { '/a/.acl': OWNER_ALL + rule('acl:agentClass acl:AuthenticatedAgent', DEFAULT_A, 'acl:Write') },
      'AuthenticatedAgent',
    ],
    [
      'a group may write below the container (members are not resolved)',
      { '/a/.acl': OWNER_ALL + rule(`acl:agentGroup <${POD}/groups/g#g>`, DEFAULT_A, 'acl:Write') },
      `${POD}/groups/g#g`,
    ],
    [
      'a key holder may write the document',
      { '/a/x.acl': ownerDoc + rule('acl:agent <did:key:z6Mkh4LmfP1ev9MNPGr7JbEbtD6BD4fsu1duEj83PMCs3xHG>', AT_DOC, 'acl:Write') },
      'did:key:',
    ],
    [
      'another WebID controls the document (and so could give itself Write)',
      { '/a/x.acl': ownerDoc + rule(`acl:agent <${BOB}>`, AT_DOC, 'acl:Control') },
      `${BOB} control`,
    ],
    [
      'another WebID may append to the container: it could have POSTed the document',
      { '/a/.acl': OWNER_ALL + rule(`acl:agent <${BOB}>`, AT_A, 'acl:Append') },
      `${BOB} append on ${POD}/a/`,
    ],
    [
      'another WebID controls the container whose ACL governs the document',
      { '/.acl': OWNER_ALL + rule(`acl:agent <${BOB}>`, 'acl:accessTo <./>', 'acl:Control') },
      `${BOB} control on ${POD}/`,
    ],
    [
      'another WebID controls the root, but the document has an ACL of its own',
      { '/.acl': OWNER_ALL + rule(`acl:agent <${BOB}>`, 'acl:accessTo <./>', 'acl:Control'), '/a/x.acl': ownerDoc },
      undefined,
    ],
  ] as [string, Record<string, string>, string | undefined][])('%s', async (_, acls, expected) => {
    const why = await ask(acls)
    if (expected === undefined) expect(why).toBeUndefined()
    else expect(why).toContain(expected)
  })
})

describe('grants: any grant that lets its grantee write or append there', () => {
  const modes = (...m: string[]) => m.map(ACL)
  const selected = (m: string[], instance = DOC) =>
    grant({ hasDataRegistration: `${POD}/a/`, scopeOfGrant: INTEROP('SelectedFromRegistry'), hasDataInstance: [instance], accessMode: modes(...m) })
  const all = (m: string[]) => grant({ hasDataRegistration: `${POD}/a/`, accessMode: modes(...m) })
  const inheritedInto = (m: string[]) =>
    grant({ hasDataRegistration: `${POD}/p/`, hasInheritingGrant: [inheriting({ hasDataRegistration: `${POD}/a/`, accessMode: modes(...m) })] })
  test.each([
    ['Read on the document', selected(['Read']), undefined],
    ['Read and Append on the document', selected(['Read', 'Append']), `grant ${POD}/g0 gives ${BOB} append on ${DOC}`],
    ['Update on another instance', selected(['Update'], `${POD}/a/y`), undefined],
    ['Delete of another instance (Write on the container only while deleting it)', selected(['Delete'], `${POD}/a/y`), undefined],
    ['Update on the whole registration', all(['Update']), `grant ${POD}/g0 gives ${BOB} write on ${DOC}`],
    ["Create in the registration: the document may be the grantee's", all(['Create']), `grant ${POD}/g0 gives ${BOB} append on ${POD}/a/`],
    ['an Inherited grant with Write, whatever links to the document', inheritedInto(['Write']), `grant ${POD}/g0#inherit-0 gives ${BOB} write on ${DOC}`],
    ['an Inherited grant with Read', inheritedInto(['Read']), undefined],
  ] as [string, GrantData, string | undefined][])('%s', async (_, g, expected) => {
    expect(await ask({}, [g])).toBe(expected)
  })
})
