// Members of a vcard:Group named by acl:agentGroup (protocols §6.1, §7.2), and a bounded caching resolver.

import type { Quad } from '@rdfjs/types'
import { VCARD } from '../rdf/namespaces.ts'
import { LruCache } from '../store/lru-cache.ts'
import { certKeys, indexBySubject, normalizeKeyId, resolveIri } from './acl-document.ts'
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
  const bySubject = indexBySubject(quads)
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

export type GroupMembership = (groupUrl: string, principal: Requester) => Promise<boolean>

/**
 * `isGroupMember` for the access context. Members are cached per group for `ttlMs` in a bounded LRU; concurrent
 * lookups share one load. A failed load is not cached, and makes the group match no one: a remote group
 * being down may only narrow access, and must not turn every decision that mentions it into an error.
 */
export function makeGroupResolver(
  loadDoc: (docUrl: string) => Promise<readonly Quad[]>, opts: GroupResolverOptions,
): GroupMembership {
  const cache = new LruCache<string, Promise<GroupMembers>>(opts.maxEntries)
  const members = (groupUrl: string): Promise<GroupMembers> => {
    const cached = cache.get(groupUrl, opts.now())
    if (cached) return cached
    const loading = loadDoc(groupDocumentUrl(groupUrl)).then(quads => groupMembers(groupUrl, quads))
    cache.set(groupUrl, loading, opts.now() + opts.ttlMs)
    loading.catch(() => { if (cache.get(groupUrl, opts.now()) === loading) cache.delete(groupUrl) })
    return loading
  }
  return async (groupUrl, principal) => {
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
}
