import { describe, expect, test } from 'bun:test'
import { Parser } from 'n3'
import type { ClientId, WebId } from '../../src/account/ids.ts'
import { HttpError } from '../../src/http/errors.ts'
import { assertOwnerKeepsControl, grantsControlTo, parseAclDocument } from '../../src/policy/acl-document.ts'
import { describeCondition } from '../../src/policy/acl-conditions.ts'
import { ACCESS_MODES, type AccessMode } from '../../src/policy/access-modes.ts'
import {
  allowedModes,
  findEffectiveAcl,
  matchAuthorizations,
  publicModes,
  type AccessContext,
  type Requester,
  type UnmetCondition,
} from '../../src/policy/wac.ts'

// WAC 1.1 editor's draft (2026-04-20): §4.4 Access Conditions (acl:ClientCondition, acl:IssuerCondition),
// §5.3.2 Condition Evaluation (all must hold). A condition this pod does not understand fails closed
// (never grants), where the draft would ignore it: see src/policy/acl-conditions.ts.

const POD = 'https://pod.example'
const ACL_URL = `${POD}/doc.acl`
const PREFIXES = `@prefix acl: <http://www.w3.org/ns/auth/acl#>. @prefix foaf: <http://xmlns.com/foaf/0.1/>. @prefix ex: <https://example.org/terms#>.\n`
const OWNER = `${POD}/profile/card#me`
const BOB = 'https://bob.example/card#me'
const APP = 'https://app.example/id'
const OTHER_APP = 'https://other-app.example/id'
const IDP = 'https://idp.example'
const OTHER_IDP = 'https://evil-idp.example'

const bob = (clientId?: string, issuer?: string): Requester => ({
  webid: BOB as WebId,
  keys: [],
  ...(clientId ? { clientId: clientId as ClientId } : {}),
  ...(issuer ? { issuer } : {}),
})
const show = (modes: ReadonlySet<AccessMode>) => ACCESS_MODES.filter(m => modes.has(m)).join(' ')
const parse = (ttl: string) => parseAclDocument(new Parser({ baseIRI: ACL_URL }).parse(PREFIXES + ttl), ACL_URL)

/** A rule giving `subject` Read of /doc, with `conditions` (Turtle objects of acl:condition). */
const ruleWith = (conditions: string, subject = `acl:agent <${BOB}>`) =>
  `<#r> a acl:Authorization; ${subject}; acl:accessTo <doc>; acl:mode acl:Read${conditions ? `; acl:condition ${conditions}` : ''}.\n`

const members: Record<string, string[]> = { [`${POD}/groups#apps`]: [APP], [`${POD}/groups#idps`]: [IDP] }
const ctx: AccessContext = { trustedOrigins: [], isGroupMember: async (g, p) => p.webid !== undefined && (members[g] ?? []).includes(p.webid) }

async function modesOf(ttl: string, who: Requester, unmet?: UnmetCondition[]): Promise<string> {
  const auths = parse(ttl)
  const effective = await findEffectiveAcl(`${POD}/doc`, async url => (url === ACL_URL ? auths : undefined))
  return show(new Set((await matchAuthorizations(effective, `${POD}/doc`, who, ctx, unmet)).keys()))
}

describe('WAC 1.1 ED §4.4.1 client condition', () => {
  const onlyApp = ruleWith(`[ a acl:ClientCondition; acl:client <${APP}> ]`)
  test('the named client acting for the agent gets the access', async () => {
    expect(await modesOf(onlyApp, bob(APP))).toBe('read')
  })
  test('another client acting for the same agent gets nothing', async () => {
    expect(await modesOf(onlyApp, bob(OTHER_APP))).toBe('')
  })
  test("a requester with no client id (HttpSig, the owner's dashboard session) meets no client condition", async () => {
    expect(await modesOf(onlyApp, bob())).toBe('')
    expect(
      await modesOf(ruleWith(`[ a acl:ClientCondition; acl:client <${APP}> ]`, `acl:agent [ <http://www.w3.org/ns/auth/cert#key> <${POD}/keys/k#it> ]`), {
        keys: [`${POD}/keys/k#it`],
      }),
    ).toBe('')
  })
  test('several clients: any one of them', async () => {
    const either = ruleWith(`[ a acl:ClientCondition; acl:client <${APP}>, <${OTHER_APP}> ]`)
    expect(await modesOf(either, bob(OTHER_APP))).toBe('read')
    expect(await modesOf(either, bob('https://third.example/id'))).toBe('')
  })
  test('acl:clientClass foaf:Agent: any client, but some client', async () => {
    const anyClient = ruleWith('[ a acl:ClientCondition; acl:clientClass foaf:Agent ]')
    expect(await modesOf(anyClient, bob('https://whatever.example/id'))).toBe('read')
    expect(await modesOf(anyClient, bob())).toBe('')
  })
  test('acl:clientGroup: a client listed by vcard:hasMember in the group', async () => {
    const grouped = ruleWith(`[ a acl:ClientCondition; acl:clientGroup </groups#apps> ]`)
    expect(await modesOf(grouped, bob(APP))).toBe('read')
    expect(await modesOf(grouped, bob(OTHER_APP))).toBe('')
  })
  test('a client condition that names no client holds for no one', async () => {
    expect(await modesOf(ruleWith('[ a acl:ClientCondition ]'), bob(APP))).toBe('')
  })
})

describe('WAC 1.1 ED §4.4.2 issuer condition', () => {
  const onlyIdp = ruleWith(`[ a acl:IssuerCondition; acl:issuer <${IDP}> ]`)
  test('an identity from the named issuer gets the access', async () => {
    expect(await modesOf(onlyIdp, bob(APP, IDP))).toBe('read')
  })
  test('the same WebID vouched for by another issuer gets nothing', async () => {
    expect(await modesOf(onlyIdp, bob(APP, OTHER_IDP))).toBe('')
  })
  test('no issuer (HttpSig, an old UMA token) meets no issuer condition', async () => {
    expect(await modesOf(onlyIdp, bob(APP))).toBe('')
  })
  test('acl:issuerClass foaf:Agent and acl:issuerGroup', async () => {
    expect(await modesOf(ruleWith('[ a acl:IssuerCondition; acl:issuerClass foaf:Agent ]'), bob(undefined, OTHER_IDP))).toBe('read')
    const grouped = ruleWith('[ a acl:IssuerCondition; acl:issuerGroup </groups#idps> ]')
    expect(await modesOf(grouped, bob(undefined, IDP))).toBe('read')
    expect(await modesOf(grouped, bob(undefined, OTHER_IDP))).toBe('')
  })
})

describe('WAC 1.1 ED §5.3.2 condition evaluation: every condition must hold', () => {
  // The draft's own example (#match-accessto-agent-mode-conditions): a client and an issuer condition
  const both = ruleWith(`[ a acl:ClientCondition; acl:client <${APP}> ], [ a acl:IssuerCondition; acl:issuer <${IDP}> ]`)
  test('both hold: granted', async () => {
    expect(await modesOf(both, bob(APP, IDP))).toBe('read')
  })
  test.each([
    ['the client', OTHER_APP, IDP],
    ['the issuer', APP, OTHER_IDP],
    ['both', OTHER_APP, OTHER_IDP],
  ])('%s fails: nothing', async (_what, client, issuer) => {
    expect(await modesOf(both, bob(client, issuer))).toBe('')
  })
  test('one node typed both ClientCondition and IssuerCondition is both conditions', async () => {
    const node = ruleWith(`[ a acl:ClientCondition, acl:IssuerCondition; acl:client <${APP}>; acl:issuer <${IDP}> ]`)
    expect(await modesOf(node, bob(APP, IDP))).toBe('read')
    expect(await modesOf(node, bob(APP, OTHER_IDP))).toBe('')
  })
  test('a rule without conditions still applies beside a conditioned one', async () => {
    const ttl =
      ruleWith(`[ a acl:ClientCondition; acl:client <${APP}> ]`) + `<#w> a acl:Authorization; acl:agent <${BOB}>; acl:accessTo <doc>; acl:mode acl:Append.`
    expect(await modesOf(ttl, bob(OTHER_APP))).toBe('append')
    expect(await modesOf(ttl, bob(APP))).toBe('read append')
  })
})

describe('a condition this pod does not understand never grants (fails closed)', () => {
  test.each([
    ['an unknown condition type', `[ a ex:TimeCondition; ex:before "2030-01-01" ]`],
    ['a condition node without a type', `[ acl:client <${APP}> ]`],
    ['a condition typed only acl:Condition', `[ a acl:Condition; acl:client <${APP}> ]`],
    ['a known type mixed with an unknown one', `[ a acl:ClientCondition, ex:TimeCondition; acl:client <${APP}> ]`],
    ['a literal', `"only on Sundays"`],
    ['an IRI the document says nothing about', `<https://example.org/conditions#c1>`],
    ['a known condition that holds beside an unknown one', `[ a acl:ClientCondition; acl:client <${APP}> ], [ a ex:TimeCondition ]`],
  ])('%s', async (_what, condition) => {
    expect(await modesOf(ruleWith(condition), bob(APP, IDP))).toBe('')
  })
  test('not even for foaf:Agent: the public gets nothing from it, nor does WAC-Allow say so', async () => {
    const ttl = ruleWith('[ a ex:TimeCondition ]', 'acl:agentClass foaf:Agent')
    expect(await modesOf(ttl, { keys: [] })).toBe('')
    const auths = parse(ttl)
    const effective = await findEffectiveAcl(`${POD}/doc`, async url => (url === ACL_URL ? auths : undefined))
    expect(show(publicModes(effective, `${POD}/doc`))).toBe('')
  })
})

describe('conditions and the public', () => {
  test('a public rule with a client condition is not public: anonymous requesters have no client', async () => {
    const ttl = ruleWith(`[ a acl:ClientCondition; acl:clientClass foaf:Agent ]`, 'acl:agentClass foaf:Agent')
    expect(await modesOf(ttl, { keys: [] })).toBe('')
    expect(await modesOf(ttl, { keys: [], clientId: APP as ClientId })).toBe('read')
    const auths = parse(ttl)
    const effective = await findEffectiveAcl(`${POD}/doc`, async url => (url === ACL_URL ? auths : undefined))
    expect(show(publicModes(effective, `${POD}/doc`))).toBe('')
  })
})

describe("a condition on a rule for the owner's own agent", () => {
  const root = (condition: string) =>
    parseAclDocument(
      new Parser({ baseIRI: `${POD}/.acl` }).parse(`${PREFIXES}<#owner> a acl:Authorization; acl:agent <${OWNER}>;
    acl:accessTo </>; acl:default </>; acl:mode acl:Read, acl:Write, acl:Control; acl:condition ${condition}.`),
      `${POD}/.acl`,
    )
  const owner = (clientId?: string): Requester => ({ webid: OWNER as WebId, keys: [], ...(clientId ? { clientId: clientId as ClientId } : {}) })
  test('holds for the owner only through that app; the dashboard session (no client id) gets nothing from it', async () => {
    const auths = root(`[ a acl:ClientCondition; acl:client <${APP}> ]`)
    const effective = await findEffectiveAcl(`${POD}/x`, async url => (url === `${POD}/.acl` ? auths : undefined))
    expect(show(await allowedModes(effective, `${POD}/x`, owner(APP), ctx))).toBe('read write append control')
    expect(show(await allowedModes(effective, `${POD}/x`, owner(OTHER_APP), ctx))).toBe('')
    expect(show(await allowedModes(effective, `${POD}/x`, owner(), ctx))).toBe('')
  })
  test("does not keep the owner's Control of the root: such a root ACL is refused, 409 owner_lockout", () => {
    const quads = new Parser({ baseIRI: `${POD}/.acl` }).parse(`${PREFIXES}<#owner> a acl:Authorization; acl:agent <${OWNER}>;
      acl:accessTo </>; acl:mode acl:Control; acl:condition [ a acl:ClientCondition; acl:client <${APP}> ].`)
    expect(grantsControlTo(root(`[ a acl:ClientCondition; acl:client <${APP}> ]`), OWNER, `${POD}/`)).toBe(false)
    let err: unknown
    try {
      assertOwnerKeepsControl(quads, `${POD}/.acl`, `${POD}/`, OWNER)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(HttpError)
    expect([(err as HttpError).status, (err as HttpError).code]).toEqual([409, 'owner_lockout'])
  })
})

describe('parsing and explaining conditions', () => {
  test('relative IRIs in a condition resolve against the ACL document', () => {
    const [a] = parse(ruleWith('[ a acl:ClientCondition; acl:clientGroup <groups#apps> ]'))
    expect(a!.conditions).toEqual([{ kind: 'client', members: [], groups: [`${POD}/groups#apps`], classes: [] }])
  })
  test('an authorization that matched but for its condition is reported with the condition', async () => {
    const unmet: UnmetCondition[] = []
    await modesOf(ruleWith(`[ a acl:ClientCondition; acl:client <${APP}> ]`), bob(OTHER_APP), unmet)
    expect(unmet.map(u => [u.authorization.id, describeCondition(u.condition)])).toEqual([[`${ACL_URL}#r`, `only through app ${APP}`]])
  })
  test.each([
    [`[ a acl:IssuerCondition; acl:issuer <${IDP}> ]`, `only with an identity from ${IDP}`],
    ['[ a acl:ClientCondition; acl:clientClass foaf:Agent; acl:clientGroup </groups#apps> ]', `only through a member of ${POD}/groups#apps or any app`],
    ['[ a ex:TimeCondition ]', 'it has a condition this pod does not understand (type https://example.org/terms#TimeCondition), so it never applies'],
    ['[ acl:client <x> ]', 'it has a condition this pod does not understand (no type), so it never applies'],
  ])('%s is explained as "%s"', async (condition, text) => {
    const unmet: UnmetCondition[] = []
    await modesOf(ruleWith(condition), bob(), unmet)
    expect(unmet.map(u => describeCondition(u.condition))).toEqual([text])
  })
})
