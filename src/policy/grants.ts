// GrantData's part of an access decision (SAI §9.6 data grants): which stored grants name the requester,
// which of them cover the target, and the modes they give there. Pure: stored facts come in as loaders.

import type { Principal } from '../auth/principal.ts'
import type { AccessMode } from './access-modes.ts'
import { isAcl } from '../store/acl-names.ts'
import { modeName, scopeName, type GrantMode, type GrantScope } from './grant-rules.ts'
import { childIri } from './grant-rdf.ts'
import { MAX_GRANT_DEPTH, type GrantData } from './grant-schema.ts'

/** One grant of the tree (a stored grant or one of its inheriting grants), ready for decisions. */
export interface GrantNode {
  readonly iri: string
  readonly grantee: string
  readonly grantedBy: string
  readonly shapeTree: string
  readonly registration: string
  readonly scope: GrantScope
  readonly instances: readonly string[]
  readonly modes: readonly GrantMode[]
  readonly parent?: GrantNode
}

export interface StoredGrant {
  readonly iri: string
  readonly data: GrantData
}

/** Grants by grantee: a decision looks at the requester's few grants, never at all of them. */
export interface GrantIndex {
  readonly byGrantee: ReadonlyMap<string, readonly GrantNode[]>
  /** The same grants by data registration: who else a grant lets write a document (link-trust.ts). */
  readonly byRegistration: ReadonlyMap<string, readonly GrantNode[]>
}

export function indexGrants(grants: Iterable<StoredGrant>): GrantIndex {
  const byGrantee = new Map<string, GrantNode[]>()
  const byRegistration = new Map<string, GrantNode[]>()
  const add = (g: GrantData, iri: string, path: number[], parent?: GrantNode) => {
    const scope = scopeName(g.scopeOfGrant)
    if (!scope) return // validated on the way in; a grant we cannot read gives nothing
    const node: GrantNode = {
      iri: childIri(iri, path),
      grantee: g.grantee,
      grantedBy: g.grantedBy,
      shapeTree: g.registeredShapeTree,
      registration: g.hasDataRegistration,
      scope,
      instances: g.hasDataInstance ?? [],
      modes: g.accessMode.map(modeName).filter((m): m is GrantMode => m !== undefined),
      ...(parent ? { parent } : {}),
    }
    byGrantee.set(node.grantee, [...(byGrantee.get(node.grantee) ?? []), node])
    byRegistration.set(node.registration, [...(byRegistration.get(node.registration) ?? []), node])
    g.hasInheritingGrant?.forEach((child, i) => add(child, iri, [...path, i], node))
  }
  for (const { iri, data } of grants) add(data, iri, [])
  return { byGrantee, byRegistration }
}

/** What an Inherited grant needs to know about the data (SAI §9.6, Shape Trees §3 st:references). */
export interface GrantLinks {
  /** Predicates by which instances of `fromTree` reference instances of `toTree` (its st:viaPredicate values). */
  referencePredicates(fromTree: string, toTree: string): Promise<readonly string[]>
  /** The instances (direct members) of a data registration. */
  instancesOf(registration: string): Promise<readonly string[]>
  /** `[predicate, object IRI]` pairs of an instance's own document. */
  linksFrom(instance: string): Promise<readonly (readonly [string, string])[]>
  /** Why someone but the owner may have written the instance's document (its links then widen nothing), or undefined. */
  writableByOthers(instance: string): Promise<string | undefined>
}

/** A reference an Inherited grant looked at on the way to the target: followed, or why not. */
export interface GrantLink {
  readonly grant: string
  /** The parent-covered instance whose document holds the link. */
  readonly from: string
  readonly predicate: string
  /** The object as written (it may carry a fragment). */
  readonly to: string
  readonly followed: boolean
  readonly why?: string
}

export interface GrantGround {
  readonly source: 'grant'
  readonly mode: AccessMode
  readonly grant: string
  readonly scope: GrantScope
  /** How the requester matched: as the grantee, or as the grantee app acting for grantedBy. */
  readonly as: 'grantee' | 'app-for-user'
  /** Inherited: the parent-covered instance that links to the target's instance. */
  readonly via?: string
  /** Write on a container given by a Delete grant for deleting this member only. */
  readonly deleting?: string
}

export interface GrantOutcome {
  readonly grounds: GrantGround[]
  /** Grants naming the requester, whether or not they cover the target (for "why nothing"). */
  readonly candidates: number
  /** The references Inherited grants looked at, followed or not. */
  readonly links: readonly GrantLink[]
}

export type Match = { readonly node: GrantNode; readonly as: GrantGround['as'] }
const NONE: Match[] = []

/** Step 2 of the SAI decision: grants whose grantee is the requester, or its app acting for grantedBy. */
export function candidateGrants(index: GrantIndex, p: Pick<Principal, 'webid' | 'clientId' | 'keys'>): Match[] {
  if (index.byGrantee.size === 0) return NONE
  const out: Match[] = []
  const seen = new Set<string>()
  const add = (node: GrantNode, as: Match['as']) => {
    if (!seen.has(node.iri)) {
      seen.add(node.iri)
      out.push({ node, as })
    }
  }
  if (p.webid !== undefined) for (const node of index.byGrantee.get(p.webid) ?? []) add(node, 'grantee')
  for (const key of p.keys) for (const node of index.byGrantee.get(key) ?? []) add(node, 'grantee')
  if (p.clientId !== undefined && p.webid !== undefined) {
    for (const node of index.byGrantee.get(p.clientId) ?? []) if (node.grantedBy === p.webid) add(node, 'app-for-user')
  }
  return out
}

/** Modes the requester's grants give on `target`, each with the grant that gave it. */
export async function grantModes(
  index: GrantIndex,
  principal: Pick<Principal, 'webid' | 'clientId' | 'keys'>,
  target: string,
  links: GrantLinks,
  candidates: readonly Match[] = candidateGrants(index, principal),
  deleting?: string,
): Promise<GrantOutcome> {
  const grounds: GrantGround[] = []
  const seen: GrantLink[] = []
  // Grants never reach access control documents: those need Control, which no grant gives.
  if (candidates.length === 0 || isAcl(target)) return { grounds, candidates: candidates.length, links: seen }
  for (const { node, as } of candidates) {
    if (deleting !== undefined && node.modes.includes('Delete') && !grounds.some(g => g.mode === 'write')) {
      // SAI §9.6 Delete: removing a covered instance also removes its containment triple, which WAC
      // guards with Write on the container (the registration); the grant gives that for this deletion only.
      const gone = isAcl(deleting) || !deleting.startsWith(target) ? undefined : await coverage(node, deleting, links, [])
      if (gone && !gone.isRegistration) {
        grounds.push({ source: 'grant', mode: 'write', grant: node.iri, scope: node.scope, as, deleting })
      }
    }
    const cover = await coverage(node, target, links, seen)
    if (!cover) continue
    for (const mode of modesAt(node.modes, cover.isRegistration, target.endsWith('/'))) {
      if (grounds.some(g => g.mode === mode)) continue
      grounds.push({ source: 'grant', mode, grant: node.iri, scope: node.scope, as, ...(cover.via ? { via: cover.via } : {}) })
    }
  }
  return { grounds, candidates: candidates.length, links: seen }
}

/**
 * SAI §9.6 modes as WAC modes: Read → read; Write → write (+append); Append → append; Create → append on
 * the registration or a covered container (adding members); Update and Delete → write on the instances
 * and what is inside them, never on the registration itself; Control is never given.
 */
export function modesAt(modes: readonly GrantMode[], isRegistration: boolean, isContainer: boolean): AccessMode[] {
  const out = new Set<AccessMode>()
  for (const m of modes) {
    if (m === 'Read') out.add('read')
    else if (m === 'Write') {
      out.add('write')
      out.add('append')
    } else if (m === 'Append') out.add('append')
    else if (m === 'Create') {
      if (isContainer) out.add('append')
    } else if (!isRegistration) {
      out.add('write')
      out.add('append')
    } // Update, Delete
  }
  return [...out]
}

/** Step 3: does the grant cover `target`? For Inherited, the parent instance that links to it. */
async function coverage(node: GrantNode, target: string, links: GrantLinks, seen: GrantLink[]): Promise<{ isRegistration: boolean; via?: string } | undefined> {
  const reg = node.registration
  if (!target.startsWith(reg)) return undefined
  if (node.scope === 'AllFromRegistry') return { isRegistration: target === reg }
  if (target === reg) return undefined // Selected and Inherited cover instances, not the registration
  const instance = instanceOf(target, reg)
  if (node.scope === 'SelectedFromRegistry') return node.instances.includes(instance) ? { isRegistration: false } : undefined
  const via = await linkingInstance(node, instance, links, seen, 0)
  return via === undefined ? undefined : { isRegistration: false, via }
}

/** The member of `registration` that `target` is, or is inside of. */
export function instanceOf(target: string, registration: string): string {
  const rest = target.slice(registration.length)
  const slash = rest.indexOf('/')
  return slash < 0 ? target : registration + rest.slice(0, slash + 1)
}

const MAX_INHERITANCE_DEPTH = MAX_GRANT_DEPTH

/**
 * SAI §9.6 Inherited: `instance` (in the child's registration) is covered when an instance the parent
 * covers references it by one of the shape tree's st:viaPredicate predicates. Returns that instance.
 * Only links in documents no one but the owner could have written count: a link is a grant's scope,
 * and a grant's scope is the owner's to set (link-trust.ts). Each link looked at goes to `seen`.
 */
async function linkingInstance(node: GrantNode, instance: string, links: GrantLinks, seen: GrantLink[], depth: number): Promise<string | undefined> {
  const parent = node.parent
  if (!parent || depth > MAX_INHERITANCE_DEPTH) return undefined
  const predicates = await links.referencePredicates(parent.shapeTree, node.shapeTree)
  if (predicates.length === 0) return undefined
  const parentInstances = parent.scope === 'SelectedFromRegistry' ? parent.instances : await links.instancesOf(parent.registration)
  for (const candidate of parentInstances) {
    const link = (await links.linksFrom(candidate)).find(([p, o]) => predicates.includes(p) && withoutFragment(o) === instance)
    if (!link) continue
    const others = await links.writableByOthers(candidate)
    const note = { grant: node.iri, from: candidate, predicate: link[0], to: link[1] }
    if (others !== undefined) {
      seen.push({ ...note, followed: false, why: `link from ${candidate} not followed: others may write it (${others})` })
      continue
    }
    if (parent.scope !== 'Inherited' || (await linkingInstance(parent, candidate, links, seen, depth + 1)) !== undefined) {
      seen.push({ ...note, followed: true })
      return candidate
    }
  }
  return undefined
}

const withoutFragment = (iri: string) => {
  const i = iri.indexOf('#')
  return i < 0 ? iri : iri.slice(0, i)
}
