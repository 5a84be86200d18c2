// Headers every resource answer carries: Link types and relations, Allow, Accept-*, Vary (Solid Protocol §4.1, LDP §4.2).

import type { ResourceMeta } from '../store/resource-meta.ts'
import { isContainerPath } from '../store/paths.ts'
import { aclOf, isAcl } from '../store/acl-names.ts'
import { ACCEPT_PATCH } from '../rdf/patch.ts'
import { ACL, LDP, PIM, SOLID } from '../rdf/namespaces.ts'
import { CONDITION_TYPES } from '../policy/acl-conditions.ts'
import { ownerWebIdOf } from '../config.ts'
import { isReservedPath, RS_PATHS } from '../http/pod-paths.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { forgetWhenIdle } from '../lib/idle-caches.ts'
import { topicStreamPath } from '../channels/subscription-services.ts'

const link = (target: string, rel: string) => `<${target}>; rel="${rel}"`

export function typeLinks(path: string, meta: ResourceMeta | undefined): string[] {
  const out = [link(LDP('Resource'), 'type')]
  if (isContainerPath(path)) out.push(link(LDP('Container'), 'type'), link(LDP('BasicContainer'), 'type'))
  else if (meta?.kind === 'rdf') out.push(link(LDP('RDFSource'), 'type'))
  else if (meta?.kind === 'binary') out.push(link(LDP('NonRDFSource'), 'type'))
  if (path === '/') out.push(link(PIM('Storage'), 'type'))
  return out
}

/**
 * WAC 1.1 ED §3.2 (server-link-condition): each condition type the pod understands, on answers to requests on the
 * effective ACL resource. Sent for every ACL resource, existing or not, and on its 401/403 too: the value is the
 * same for all, so it tells nobody whether an ACL exists.
 */
const conditionLinks = (path: string): string[] => (isAcl(path) ? CONDITION_TYPES.map(t => link(t, ACL('condition'))) : [])

/** The `rel="acl"` link (never on ACL resources themselves); also used on 401/403 answers. */
export const aclLinkOf = (baseUrl: string, path: string) => (isAcl(path) ? undefined : link(baseUrl + aclOf(path), 'acl'))

// Every read of a resource answers the same Link/Allow/Accept-* values, which depend only on its
// path and kind: computed once per (path, kind) and copied into each answer.
const FIXED_HEADERS_ENTRIES = 2000
const fixedHeaders = forgetWhenIdle(new LruCache<string, Headers>(FIXED_HEADERS_ENTRIES))
const challengeLinksOf = forgetWhenIdle(new LruCache<string, string>(FIXED_HEADERS_ENTRIES))

/** Links on 401/403 answers (the deny step of the request pipeline, docs/architecture.md): the type links known from the path, and the ACL. */
export function challengeLinks(baseUrl: string, path: string): string {
  return challengeLinksOf.memo(`${baseUrl}${path}`, () => {
    const acl = aclLinkOf(baseUrl, path)
    return [...typeLinks(path, undefined), ...(acl ? [acl] : []), ...conditionLinks(path)].join(', ')
  })
}

export function allowedMethods(path: string, meta: ResourceMeta | undefined): string[] {
  const methods = ['OPTIONS', 'HEAD', 'GET']
  // the pod's URL space (http/pod-paths.ts): writes to the pod's own endpoint paths are refused (reserved_path).
  if (isReservedPath(path)) return methods
  // Solid Protocol §5.4: the root cannot be overwritten (resources/put-resource.ts answers 405).
  if (path !== '/') methods.push('PUT')
  if (!meta || meta.kind !== 'binary') methods.push('PATCH')
  if (isContainerPath(path)) methods.push('POST')
  // Solid Protocol §5.4: the root and its ACL cannot be deleted. Decided by path alone, so that an
  // unauthenticated OPTIONS cannot tell whether a resource exists.
  if (path !== '/' && path !== '/.acl') methods.push('DELETE')
  return methods
}

/**
 * A fresh Headers the caller may add to. Kept as Headers, not a plain record: copying a Headers is several
 * times cheaper than building one from an object (measured in Bun 1.4: ~1 µs against ~4 µs per answer).
 */
export function resourceHeaders(baseUrl: string, path: string, meta: ResourceMeta | undefined): Headers {
  const fixed = fixedHeaders.memo(`${meta?.kind ?? ''}\0${baseUrl}${path}`, () => new Headers(computeResourceHeaders(baseUrl, path, meta)))
  return new Headers(fixed)
}

function computeResourceHeaders(baseUrl: string, path: string, meta: ResourceMeta | undefined): Record<string, string> {
  const links = typeLinks(path, meta)
  const acl = aclLinkOf(baseUrl, path)
  if (acl) links.push(acl)
  links.push(...conditionLinks(path))
  links.push(link(baseUrl + RS_PATHS.storageDescription, SOLID('storageDescription')))
  // StreamingHTTPChannel2023: a topic names its own stream; reserved paths are no topics
  if (!isReservedPath(path)) links.push(link(baseUrl + topicStreamPath(path), SOLID('updatesViaStreamingHttp2023')))
  if (path === '/') links.push(link(ownerWebIdOf(baseUrl), SOLID('owner')))
  const allowed = allowedMethods(path, meta)
  const headers: Record<string, string> = { link: links.join(', '), allow: allowed.join(', '), vary: 'Accept, Authorization, Origin' }
  if (allowed.includes('PUT')) headers['accept-put'] = '*/*'
  if (allowed.includes('PATCH')) headers['accept-patch'] = ACCEPT_PATCH
  if (allowed.includes('POST')) headers['accept-post'] = '*/*'
  return headers
}
