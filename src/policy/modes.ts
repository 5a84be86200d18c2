// Access modes: which modes a request needs on which resources (WAC §5), and the WAC-Allow header.

import { HttpError } from '../http/errors.ts'
import { ACCESS_MODES, type AccessMode } from './access-modes.ts'
import { parentContainerOf } from './containment.ts'
import { governedBy, isAcl, isAclOfAcl } from '../store/acl-names.ts'

export interface ModeRequirement {
  readonly url: string
  readonly modes: readonly AccessMode[]
  /** DELETE: the member whose removal needs these modes on its container (a Delete grant on it counts). */
  readonly deleting?: string
}

/** What a patch document asks for (N3 Patch §5.4: where → read, inserts → append, deletes → read + write). */
export interface PatchNeeds {
  readonly read: boolean
  readonly append: boolean
  readonly write: boolean
}

export interface RequestFacts {
  readonly method: string
  /** The request target, without query. */
  readonly url: string
  /** Does the target have a representation now? Decides PUT/PATCH create vs replace. */
  readonly exists: boolean
  /** Missing containers between the target and its nearest existing ancestor, which a create makes. */
  readonly createdContainers?: readonly string[]
  /** Required for PATCH. */
  readonly patch?: PatchNeeds
}

const READ: readonly AccessMode[] = Object.freeze(['read'])

/** The modes each affected resource needs; every requirement must be covered for the request to pass. */
export function requiredModes(f: RequestFacts): ModeRequirement[] {
  const method = f.method.toUpperCase()
  if (method === 'OPTIONS') return [] // §6.4: preflight needs nothing
  // §6.4: any method on an ACL resource needs Control on the resource the ACL governs; reading it is decided on
  // the ACL itself, which Control grants entirely and a rule naming the ACL can open for Read (the HttpSig proposal, see wac.ts).
  if (isAcl(f.url)) {
    const read = (method === 'GET' || method === 'HEAD') && !isAclOfAcl(f.url)
    return read ? [{ url: f.url, modes: ['read'] }] : [{ url: governedBy(f.url), modes: ['control'] }]
  }
  // The most frequent request by far: Read of the target alone.
  if (method === 'GET' || method === 'HEAD') return [{ url: f.url, modes: READ }]
  const need = new Map<string, Set<AccessMode>>()
  const add = (url: string | undefined, ...modes: AccessMode[]) => {
    if (url === undefined) return
    const set = need.get(url) ?? new Set<AccessMode>()
    for (const m of modes) set.add(m)
    need.set(url, set)
  }
  switch (method) {
    case 'POST':
      add(f.url, 'append') // §6.4: a new member of the container; the member itself needs nothing more
      break
    case 'PUT':
      add(f.url, 'write')
      if (!f.exists) addCreation(f, add)
      break
    case 'PATCH': {
      const p = f.patch
      if (!p) throw new HttpError(500, 'server_error', 'PATCH needs the modes of its patch document')
      if (p.read) add(f.url, 'read')
      if (p.append) add(f.url, 'append')
      if (p.write) add(f.url, 'write')
      // An empty patch must not pass with no modes at all: its 2xx would reveal the resource to anyone.
      if (!p.read && !p.append && !p.write) add(f.url, 'append')
      if (!f.exists) addCreation(f, add)
      break
    }
    case 'DELETE':
      addDeletion(f, add)
      break
    default:
      throw new HttpError(405, 'method_not_allowed', `${method} is not supported on pod resources`)
  }
  const deleting = method === 'DELETE' ? parentContainerOf(f.url) : undefined
  return [...need].map(([url, modes]) => ({ url, modes: canonicalModes(modes), ...(url === deleting ? { deleting: f.url } : {}) }))
}

// §6.4: a create needs Append on the parent; each intermediate container made on the way is itself
// a new resource (Write on it) added to its own parent (Append there).
function addCreation(f: RequestFacts, add: (url: string | undefined, ...modes: AccessMode[]) => void) {
  add(parentContainerOf(f.url), 'append')
  for (const c of f.createdContainers ?? []) {
    add(c, 'write')
    add(parentContainerOf(c), 'append')
  }
}

/**
 * WAC "Reading and Writing Resources": "When an operation requests to delete a resource, the server MUST match
 * Authorizations allowing the acl:Write access privilege on the resource and the containing container" (the
 * resource's own effective ACL decides the former, the container's the latter). Its opening sentence, "read
 * operations attempt to confirm the existence of a resource or to view [its] contents", and the Solid
 * Protocol's "read operation: information about a resource's existence … can be known" add two needs, as CSS 7
 * does and the Solid conformance suite (web-access-control/protected-operation/write-access-*) checks:
 * - a container: Read on it too, because its answer (204, or 409 while it has members) tells whether it is
 *   empty (CSS MethodModesExtractor); Write inherited through `acl:default` alone deletes no folder;
 * - a missing resource: Read on its container too, because only an agent that may list the container may learn
 *   that the name is free (404); anyone else gets 401/403 (CSS DeleteParentExtractor).
 */
function addDeletion(f: RequestFacts, add: (url: string | undefined, ...modes: AccessMode[]) => void) {
  const parent = parentContainerOf(f.url)
  add(f.url, 'write')
  add(parent, 'write')
  if (f.url.endsWith('/')) add(f.url, 'read')
  if (!f.exists) add(parent, 'read')
}

// Write satisfies a need for Append (acl:Append rdfs:subClassOf acl:Write), so the pair reads as Write alone.
function canonicalModes(modes: ReadonlySet<AccessMode>): AccessMode[] {
  return ACCESS_MODES.filter(m => modes.has(m) && !(m === 'append' && modes.has('write')))
}

/** Does `allowed` cover every mode in `needed`? Write covers Append. */
export function coversModes(allowed: ReadonlySet<AccessMode>, needed: readonly AccessMode[]): boolean {
  return needed.every(m => allowed.has(m) || (m === 'append' && allowed.has('write')))
}

/** `WAC-Allow` value (WAC §6), e.g. `user="read write append control",public="read"`. */
export function formatWacAllow(user: ReadonlySet<AccessMode>, pub: ReadonlySet<AccessMode>): string {
  const mask = listedMask(user) | (listedMask(pub) << 4)
  return (wacAllowValues[mask] ??= `user="${modeList(mask)}",public="${modeList(mask >> 4)}"`)
}

/**
 * The 256 possible values, each made once: an authenticated reader's decision is a new object on every request,
 * and its value was made again each time (and kept by decision in a WeakMap, an entry for the collector to clear):
 * ~2 µs a request, against ~0.1 µs for the mask and the lookup.
 */
const wacAllowValues: (string | undefined)[] = []

/** Bit i: ACCESS_MODES[i] is listed (Write lists Append too). */
function listedMask(modes: ReadonlySet<AccessMode>): number {
  const write = modes.has('write')
  return (modes.has('read') ? 1 : 0) | (write ? 2 : 0) | (write || modes.has('append') ? 4 : 0) | (modes.has('control') ? 8 : 0)
}

const modeList = (mask: number): string => ACCESS_MODES.filter((_, i) => mask & (1 << i)).join(' ')

/** The `user` modes of a WAC-Allow header (WAC §6.5); unknown modes and groups are ignored, as clients must. */
export function parseWacAllow(header: string | null): Set<AccessMode> {
  const user = /(?:^|,)\s*user\s*=\s*"([^"]*)"/i.exec(header ?? '')?.[1] ?? ''
  return new Set(user.split(/\s+/).filter((m): m is AccessMode => (ACCESS_MODES as readonly string[]).includes(m)))
}
