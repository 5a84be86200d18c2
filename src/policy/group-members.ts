// Members of a vcard:Group named by acl:agentGroup (WAC §5, §7.2), and a bounded caching resolver.

import type { Quad } from '@rdfjs/types'
import { VCARD } from '../rdf/namespaces.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { certKeys, indexBySubject, resolveIri, type SubjectIndex } from './acl-document.ts'
import { normalizeKeyId } from '../auth/key-id.ts'
import type { Requester } from './wac.ts'

export interface GroupMembers {
  readonly webids: ReadonlySet<string>
  readonly keys: ReadonlySet<string>
}

/**
 * `<G> vcard:hasMember <webid>`, `[ cert:key <K> ]` or `<did:key:…>` in G's document. The vcard:Group type
 * is not required, as in other servers: hasMember alone says who is in. Relative IRIs resolve against G.
 */
export function groupMembers(groupUrl: string, quads: readonly Quad[]): GroupMembers {
  return membersOf(groupUrl, indexBySubject(quads))
}

/** Every group a document describes (subjects with vcard:hasMember): what the resolver keeps of it. */
export function groupsOfDocument(quads: readonly Quad[]): Map<string, GroupMembers> {
  const bySubject = indexBySubject(quads)
  const groups = new Map<string, GroupMembers>()
  for (const [subject, props] of bySubject) {
    if (!subject.startsWith('_:') && props.has(VCARD('hasMember'))) groups.set(subject, membersOf(subject, bySubject))
  }
  return groups
}

function membersOf(groupUrl: string, bySubject: SubjectIndex): GroupMembers {
  const base = groupUrl
  const webids = new Set<string>()
  const keys = new Set<string>()
  for (const m of bySubject.get(groupUrl)?.get(VCARD('hasMember')) ?? []) {
    if (m.termType === 'NamedNode') {
      const iri = resolveIri(m.value, base)
      if (iri.startsWith('did:key:')) keys.add(normalizeKeyId(iri))
      else webids.add(iri)
    }
    if (m.termType === 'NamedNode' || m.termType === 'BlankNode') for (const k of certKeys(m, bySubject, base)) keys.add(k)
  }
  return { webids, keys }
}

/** The group's document: the group IRI without its fragment. */
export function groupDocumentUrl(groupUrl: string): string {
  const hash = groupUrl.indexOf('#')
  return hash < 0 ? groupUrl : groupUrl.slice(0, hash)
}

export interface GroupResolverOptions {
  readonly maxEntries: number
  readonly ttlMs: number
  readonly now: () => number
  /** Told when a group document cannot be read; its members then count as nobody. */
  readonly onError?: (groupUrl: string, error: unknown) => void
}

const NO_MEMBERS: GroupMembers = Object.freeze({ webids: new Set<string>(), keys: new Set<string>() })

export type GroupMembership = (groupUrl: string, principal: Requester) => Promise<boolean>

/** A caching resolver; `forget` drops a document after it changed (a local group edited through the pod). */
export type GroupResolver = GroupMembership & { forget(docUrl: string): void }

/**
 * `isGroupMember` for the access context. Documents are cached for `ttlMs` in a bounded LRU keyed by document
 * URL, so several groups in one document cost one load; concurrent lookups share one load. A failed load is not
 * cached, and makes the group match no one: a remote group being down may only narrow access, and must not turn
 * every decision that mentions it into an error.
 */
export function makeGroupResolver(loadDoc: (docUrl: string) => Promise<readonly Quad[]>, opts: GroupResolverOptions): GroupResolver {
  // Per document only the members of its groups are kept, never its quads: an entry is as small as its member lists.
  const cache = new LruCache<string, Promise<Map<string, GroupMembers>>>(opts.maxEntries)
  const load = (docUrl: string): Promise<Map<string, GroupMembers>> => {
    const cached = cache.get(docUrl, opts.now())
    if (cached) return cached
    const loading = loadDoc(docUrl).then(groupsOfDocument)
    cache.set(docUrl, loading, opts.now() + opts.ttlMs)
    loading.catch(() => {
      if (cache.get(docUrl, opts.now()) === loading) cache.delete(docUrl)
    })
    return loading
  }
  const members = async (groupUrl: string): Promise<GroupMembers> => (await load(groupDocumentUrl(groupUrl))).get(groupUrl) ?? NO_MEMBERS
  const isMember = async (groupUrl: string, principal: Requester) => {
    let m: GroupMembers
    try {
      m = await members(groupUrl)
    } catch (error) {
      opts.onError?.(groupUrl, error)
      return false
    }
    if (principal.webid !== undefined && m.webids.has(principal.webid)) return true
    return principal.keys.some(k => m.keys.has(normalizeKeyId(k)))
  }
  // A load still in flight was already dropped from the cache, so it can never put the old document back.
  return Object.assign(isMember, { forget: (docUrl: string) => cache.delete(groupDocumentUrl(docUrl)) })
}
