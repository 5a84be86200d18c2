// The live properties of a resource (RFC 4918 §15), computed from what the store keeps of it and the locks on it.
// The store keeps no creation time: creationdate is the last write, the closest it knows.

import type { ResourceMeta } from '../store/resource-meta.ts'
import { defaultEtag } from '../store/resource-meta.ts'
import { isContainerPath } from '../store/paths.ts'
import type { WriteLock } from '../resources/lock-table.ts'
import { clark, escapeXml } from './multistatus.ts'

const dav = (local: string) => clark('DAV:', local)

/** The live properties allprop and propname give, in the order they are written. */
export const LIVE_PROPERTIES = [
  'resourcetype',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'creationdate',
  'displayname',
  'supportedlock',
  'lockdiscovery',
].map(dav)

/** RFC 4918 §15: every live property is the server's; a PROPPATCH of one is refused (403, cannot-modify-protected-property). */
export const isLiveProperty = (name: string) => LIVE_PROPERTIES.includes(name)

const SUPPORTED_LOCK = ['exclusive', 'shared']
  .map(scope => `<D:lockentry><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`)
  .join('')

/** The last segment, decoded: what a file manager shows as the name. */
export function displayNameOf(path: string): string {
  const trimmed = isContainerPath(path) ? path.slice(0, -1) : path
  const segment = trimmed.slice(trimmed.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** RFC 4918 §14.1: one lock as `D:activelock`; the timeout as what remains of it. */
export function activeLock(lock: WriteLock, now: number): string {
  const timeout = lock.timeoutS === Infinity ? 'Infinite' : `Second-${Math.max(0, Math.ceil((lock.expiresAt - now) / 1000))}`
  return (
    `<D:activelock><D:locktype><D:write/></D:locktype><D:lockscope><D:${lock.scope}/></D:lockscope><D:depth>${lock.depth === '0' ? '0' : 'infinity'}</D:depth>` +
    (lock.owner !== undefined ? `<D:owner>${lock.owner}</D:owner>` : '') +
    `<D:timeout>${timeout}</D:timeout><D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(lock.root)}</D:href></D:lockroot></D:activelock>`
  )
}

export const lockDiscovery = (locks: readonly WriteLock[], now: number) => `<D:lockdiscovery>${locks.map(l => activeLock(l, now)).join('')}</D:lockdiscovery>`

/** Each live property this resource has, as its whole element; a file has no resourcetype collection, a folder no length or type. */
export function liveProperties(path: string, meta: ResourceMeta, locks: readonly WriteLock[], now: number): Map<string, string> {
  const folder = meta.kind === 'container'
  const modified = new Date(meta.modified)
  const props = new Map<string, string>()
  props.set(dav('resourcetype'), folder ? '<D:resourcetype><D:collection/></D:resourcetype>' : '<D:resourcetype/>')
  if (!folder) {
    props.set(dav('getcontentlength'), `<D:getcontentlength>${meta.size}</D:getcontentlength>`)
    props.set(dav('getcontenttype'), `<D:getcontenttype>${escapeXml(meta.contentType)}</D:getcontenttype>`)
  }
  props.set(dav('getetag'), `<D:getetag>${escapeXml(defaultEtag(meta))}</D:getetag>`)
  // RFC 4918 §15.7: an HTTP-date (RFC 1123); §15.1: creationdate is RFC 3339
  props.set(dav('getlastmodified'), `<D:getlastmodified>${modified.toUTCString()}</D:getlastmodified>`)
  props.set(dav('creationdate'), `<D:creationdate>${modified.toISOString().replace(/\.\d{3}Z$/, 'Z')}</D:creationdate>`)
  props.set(dav('displayname'), `<D:displayname>${escapeXml(displayNameOf(path))}</D:displayname>`)
  props.set(dav('supportedlock'), `<D:supportedlock>${SUPPORTED_LOCK}</D:supportedlock>`)
  props.set(dav('lockdiscovery'), lockDiscovery(locks, now))
  return props
}
