// A resource's ACL as the share pages show and edit it: one entry per subject (WAC §6.3: the
// subjects of one authorization are alternatives), and the ACL document written back from the
// entries, one acl:Authorization each (WAC §5). The share page's forms write
// through here; it imports only types and the pure wording of conditions.

import type { AclRow } from './acl-view.ts'
import { describeCondition, type AclCondition } from '../policy/acl-conditions.ts'

export type Kind = 'agent' | 'public' | 'authenticated' | 'group' | 'key' | 'class'

/**
 * `conditions`: the authorization's acl:condition values (WAC 1.1 ED §4.4), kept as read so a save never drops
 * one (dropping a condition would widen access); the forms add one: "only through this app" (acl:client).
 */
export interface Entry {
  kind: Kind
  value: string
  modes: string[]
  thisItem: boolean
  inside: boolean
  origins: string[]
  conditions: AclCondition[]
}

export const FOAF_AGENT = 'http://xmlns.com/foaf/0.1/Agent'
export const AUTHENTICATED = 'http://www.w3.org/ns/auth/acl#AuthenticatedAgent'
export const MODES = ['read', 'append', 'write', 'control'] as const
export const MODE_LABEL: Record<string, string> = { read: 'Read', append: 'Append', write: 'Write', control: 'Control' }
/** What each mode lets a person do, in plain words (the pages' tables and forms; MODE_LABEL is the ACL term). */
export const MODE_WORDS: Record<string, string> = { read: 'Read', append: 'Add', write: 'Change', control: 'Decide who has access' }
export const KIND_LABEL: Record<Kind, string> = {
  agent: 'Person (WebID)',
  public: 'Everyone (public)',
  authenticated: 'Anyone signed in',
  group: 'Group',
  key: 'Key',
  class: 'Class',
}

export function entriesOf(rows: readonly AclRow[]): Entry[] {
  return rows.flatMap(r => {
    const base = { modes: [...r.modes], thisItem: r.thisItem, inside: r.inside, origins: [...r.origins], conditions: [...r.conditions] }
    return [
      ...r.agents.map(value => ({ ...base, kind: 'agent' as const, value })),
      ...r.agentClasses.map(value => ({
        ...base,
        kind: value === FOAF_AGENT ? ('public' as const) : value === AUTHENTICATED ? ('authenticated' as const) : ('class' as const),
        value,
      })),
      ...r.groups.map(value => ({ ...base, kind: 'group' as const, value })),
      ...r.keys.map(value => ({ ...base, kind: 'key' as const, value })),
    ]
  })
}

/** Inherited access as entries of this resource: what "set access here" starts from. */
export const inheritedAsOwn = (rows: readonly AclRow[], container: boolean): Entry[] => entriesOf(rows).map(e => ({ ...e, thisItem: true, inside: container }))

export const scopeText = (e: Entry, container: boolean) =>
  !container ? 'This item' : e.thisItem && e.inside ? 'This folder and everything inside' : e.inside ? 'Only things inside' : 'This folder only'

/** What the "Only through" column says: the app origins (acl:origin) and the conditions, or "any app". */
export const appsText = (e: Entry): string =>
  [...(e.origins.length ? [`origin ${e.origins.join(' or ')}`] : []), ...e.conditions.map(describeCondition)].join('; ') || 'any app'

/** "Only through this app": a client condition naming one client identifier (WAC 1.1 ED §4.4.1 acl:client). */
export const onlyThroughApp = (clientId: string): AclCondition => ({ kind: 'client', members: [clientId], groups: [], classes: [] })

/**
 * What is wrong with the "only through this app" field, if anything: a client identifier is an http(s) URL (a
 * Client ID Document, Solid-OIDC §5.1), and a client condition narrows one person's access (WAC 1.1 ED §4.4.1).
 */
export function clientFieldProblem(clientId: string, kind: Kind): string | undefined {
  if (clientId === '') return undefined
  if (!(/^https?:/.test(clientId) && isIri(clientId))) return "Only through this app: enter the app's client identifier, a URL like https://app.example/id"
  return kind === 'agent' ? undefined : 'Only through this app: only for a person (WebID)'
}

/**
 * Whether `e` gives the owner Control of this item itself: a rule for the owner, anyone signed in or
 * the public, with Control and no condition (the dashboard has no client id to meet one), that applies
 * to the item (a rule for "only things inside" does not).
 */
export const givesOwnerControl = (e: Entry, owner: string): boolean =>
  e.thisItem &&
  e.modes.includes('control') &&
  e.conditions.length === 0 &&
  (e.kind === 'public' || e.kind === 'authenticated' || (e.kind === 'agent' && e.value === owner))

/** An absolute http(s) or did: IRI with none of the characters Turtle's IRIREF forbids. */
export const isIri = (v: string) => /^(https?|did):/.test(v) && !/[\s<>"{}|\\^`]/.test(v) && URL.canParse(v)
const iri = (v: string) => `<${v.replace(/[\s<>"{}|\\^`]/g, encodeURIComponent)}>`

// WAC 1.1 ED §4.4: a condition written back as read; one of a type this pod does not understand keeps its type
// (or none), so it still never applies, though its other statements are dropped (listed before a save).
function conditionTurtle(c: AclCondition): string {
  if (c.kind === 'unknown') return c.type ? `acl:condition [ a ${iri(c.type)} ]` : 'acl:condition [ ]'
  const p =
    c.kind === 'client'
      ? { type: 'acl:ClientCondition', member: 'acl:client', group: 'acl:clientGroup', class: 'acl:clientClass' }
      : { type: 'acl:IssuerCondition', member: 'acl:issuer', group: 'acl:issuerGroup', class: 'acl:issuerClass' }
  const values = (predicate: string, iris: readonly string[]) => (iris.length ? [`${predicate} ${iris.map(iri).join(', ')}`] : [])
  return `acl:condition [ ${[`a ${p.type}`, ...values(p.member, c.members), ...values(p.group, c.groups), ...values(p.class, c.classes)].join('; ')} ]`
}

/** The ACL document of these entries: one authorization each (WAC §5). */
export function aclTurtle(url: string, entries: readonly Entry[]): string {
  const lines = [
    '@prefix acl: <http://www.w3.org/ns/auth/acl#>.',
    '@prefix foaf: <http://xmlns.com/foaf/0.1/>.',
    '@prefix cert: <http://www.w3.org/ns/auth/cert#>.',
    '',
  ]
  entries.forEach((e, i) => {
    const subject =
      e.kind === 'agent'
        ? `acl:agent ${iri(e.value)}`
        : e.kind === 'group'
          ? `acl:agentGroup ${iri(e.value)}`
          : e.kind === 'key'
            ? e.value.startsWith('did:key:')
              ? `acl:agent ${iri(e.value)}`
              : `acl:agent [ cert:key ${iri(e.value)} ]`
            : `acl:agentClass ${iri(e.value)}`
    const parts = [
      `<#rule${i + 1}> a acl:Authorization`,
      subject,
      ...(e.thisItem ? [`acl:accessTo ${iri(url)}`] : []),
      ...(e.inside ? [`acl:default ${iri(url)}`] : []),
      `acl:mode ${e.modes.map(m => `acl:${MODE_LABEL[m]}`).join(', ')}`,
      ...e.origins.map(o => `acl:origin ${iri(o)}`),
      ...e.conditions.map(conditionTurtle),
    ]
    lines.push(parts.join(';\n  ') + '.')
  })
  return lines.join('\n') + '\n'
}
