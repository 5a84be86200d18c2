// A resource's ACL as the share pages show and edit it: one entry per subject (WAC §6.3: the
// subjects of one authorization are alternatives), and the ACL document written back from the
// entries, one acl:Authorization each (WAC §5). Shared by the dashboard's script and the page that
// works without JavaScript, so both write the same document; no imports beyond types, as it runs in both.

import type { AclRow } from './acl-view.ts'

export type Kind = 'agent' | 'public' | 'authenticated' | 'group' | 'key' | 'class'

export interface Entry { kind: Kind; value: string; modes: string[]; thisItem: boolean; inside: boolean; origins: string[] }

export const FOAF_AGENT = 'http://xmlns.com/foaf/0.1/Agent'
export const AUTHENTICATED = 'http://www.w3.org/ns/auth/acl#AuthenticatedAgent'
export const MODES = ['read', 'append', 'write', 'control'] as const
export const MODE_LABEL: Record<string, string> = { read: 'Read', append: 'Append', write: 'Write', control: 'Control' }
export const KIND_LABEL: Record<Kind, string> = { agent: 'Person (WebID)', public: 'Everyone (public)', authenticated: 'Anyone signed in', group: 'Group', key: 'Key', class: 'Class' }

export function entriesOf(rows: readonly AclRow[]): Entry[] {
  return rows.flatMap((r) => {
    const base = { modes: [...r.modes], thisItem: r.thisItem, inside: r.inside, origins: [...r.origins] }
    return [
      ...r.agents.map((value) => ({ ...base, kind: 'agent' as const, value })),
      ...r.agentClasses.map((value) => ({ ...base, kind: value === FOAF_AGENT ? 'public' as const : value === AUTHENTICATED ? 'authenticated' as const : 'class' as const, value })),
      ...r.groups.map((value) => ({ ...base, kind: 'group' as const, value })),
      ...r.keys.map((value) => ({ ...base, kind: 'key' as const, value })),
    ]
  })
}

/** Inherited access as entries of this resource: what "set access here" starts from. */
export const inheritedAsOwn = (rows: readonly AclRow[], container: boolean): Entry[] =>
  entriesOf(rows).map((e) => ({ ...e, thisItem: true, inside: container }))

export const scopeText = (e: Entry, container: boolean) =>
  !container ? 'This item' : e.thisItem && e.inside ? 'This folder and everything inside' : e.inside ? 'Only things inside' : 'This folder only'

/**
 * Whether `e` gives the owner Control of this item itself: a rule for the owner, anyone signed in or
 * the public, with Control, that applies to the item (a rule for "only things inside" does not).
 */
export const givesOwnerControl = (e: Entry, owner: string): boolean =>
  e.thisItem && e.modes.includes('control') && (e.kind === 'public' || e.kind === 'authenticated' || (e.kind === 'agent' && e.value === owner))

/** An absolute http(s) or did: IRI with none of the characters Turtle's IRIREF forbids. */
export const isIri = (v: string) => /^(https?|did):/.test(v) && !/[\s<>"{}|\\^`]/.test(v) && URL.canParse(v)
const iri = (v: string) => `<${v.replace(/[\s<>"{}|\\^`]/g, encodeURIComponent)}>`

/** The ACL document of these entries: one authorization each (WAC §5). */
export function aclTurtle(url: string, entries: readonly Entry[]): string {
  const lines = ['@prefix acl: <http://www.w3.org/ns/auth/acl#>.', '@prefix foaf: <http://xmlns.com/foaf/0.1/>.', '@prefix cert: <http://www.w3.org/ns/auth/cert#>.', '']
  entries.forEach((e, i) => {
    const subject = e.kind === 'agent' ? `acl:agent ${iri(e.value)}` : e.kind === 'group' ? `acl:agentGroup ${iri(e.value)}`
      : e.kind === 'key' ? (e.value.startsWith('did:key:') ? `acl:agent ${iri(e.value)}` : `acl:agent [ cert:key ${iri(e.value)} ]`)
        : `acl:agentClass ${iri(e.value)}`
    const parts = [`<#rule${i + 1}> a acl:Authorization`, subject,
      ...(e.thisItem ? [`acl:accessTo ${iri(url)}`] : []), ...(e.inside ? [`acl:default ${iri(url)}`] : []),
      `acl:mode ${e.modes.map((m) => `acl:${MODE_LABEL[m]}`).join(', ')}`, ...e.origins.map((o) => `acl:origin ${iri(o)}`)]
    lines.push(parts.join(';\n  ') + '.')
  })
  return lines.join('\n') + '\n'
}
