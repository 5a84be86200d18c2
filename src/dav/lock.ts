// LOCK and UNLOCK (RFC 4918 §9.10, §9.11): exclusive and shared write locks with timeouts, kept in the operations
// layer's lock table (resources/lock-table.ts), which every write of the pod asks. Taking a lock needs what writing
// the resource needs (Write, decided by the layer); a LOCK of an unmapped name makes an empty resource (§7.3), as a
// PUT of nothing would. A LOCK without a body refreshes the lock its If header names (§9.10.2).

import type { Element } from '@xmldom/xmldom'
import { HttpError } from '../http/errors.ts'
import { getMeta } from '../store/resources.ts'
import type { LockScope, WriteLock } from '../resources/lock-table.ts'
import { submittedLocksOf, submittedTokens } from '../resources/if-header.ts'
import { actingOf, depthOf, type DavContext, type DavRequest } from './dav-context.ts'
import { badXml, childElements, davChild, isDav, readXmlBody, rootOf, xmlDom } from './xml-body.ts'
import { lockDiscovery } from './live-properties.ts'
import { propBody, XML_TYPE } from './multistatus.ts'

/** Timeouts granted: what is asked, at most a day; an hour when nothing is asked. A laptop that went away frees its files by then. */
export const MAX_LOCK_SECONDS = 86_400
export const DEFAULT_LOCK_SECONDS = 3600

/** §10.7: `Timeout: Infinite, Second-4100000000`: the first value we can read, within MAX_LOCK_SECONDS. */
export function timeoutOf(headers: Headers): number {
  for (const part of (headers.get('timeout') ?? '').split(',').map(s => s.trim())) {
    if (/^infinite$/i.test(part)) return MAX_LOCK_SECONDS
    const m = /^second-(\d{1,12})$/i.exec(part)
    if (m) return Math.min(Number(m[1]), MAX_LOCK_SECONDS)
  }
  return DEFAULT_LOCK_SECONDS
}

const answer = (lock: WriteLock, now: number, status: number) =>
  new Response(propBody(lockDiscovery([lock], now)), {
    status,
    headers: { 'content-type': XML_TYPE, 'lock-token': `<${lock.token}>` },
  })

export async function handleLock(ctx: DavContext, r: DavRequest): Promise<Response> {
  const { resources, store } = ctx.deps
  const { path } = r.target
  const who = actingOf(r)
  const depth = depthOf(r.request.headers, 'infinity')
  if (depth === '1') throw new HttpError(400, 'invalid_request', 'LOCK takes Depth 0 or infinity (RFC 4918 §9.10.3)')
  const doc = await readXmlBody(r.request)
  const submitted = submittedLocksOf(r.request.headers)
  if (!doc) {
    // §9.10.2: a refresh names its lock in the If header; access first, so a stranger learns nothing of the lock
    await resources.admitPropertyChange(who, path)
    const tokens = submittedTokens(submitted.ifLists ?? [])
    const lock = resources.locks.covering(path).find(l => tokens.has(l.token))
    if (!lock)
      throw new HttpError(
        412,
        'precondition_failed',
        'a LOCK without a body refreshes a lock: name a lock of this resource in the If header (a lock expires, and is forgotten when the pod restarts)',
      )
    return answer(resources.locks.refresh(lock.token, timeoutOf(r.request.headers))!, ctx.deps.now(), 200)
  }
  const info = lockInfoOf(rootOf(doc, 'lockinfo'))
  const exists = (await getMeta(store, path)) !== undefined
  let lockTokens: string[]
  if (exists) {
    await resources.admitPropertyChange(who, path)
    lockTokens = await resources.locks.admit({ ...submitted, path })
  } else {
    // Planned before the lock is taken: access (and a 409 for a missing folder above), then the locks it submits
    await resources.planPut(who, path, {
      preconditions: { ifMatch: null, ifNoneMatch: '*', ...submitted },
      contentType: path.endsWith('/') ? 'text/turtle' : 'application/octet-stream',
    })
    // planPut judged them
    lockTokens = [...submittedTokens(submitted.ifLists ?? [])]
  }
  const lock = resources.locks.add({
    root: path,
    depth,
    scope: info.scope,
    timeoutS: timeoutOf(r.request.headers),
    ...(info.owner !== undefined ? { owner: info.owner } : {}),
  })
  if (!exists) {
    try {
      await resources.put(who, path, path.endsWith('/') ? 'text/turtle' : 'application/octet-stream', new Uint8Array(0), {
        ifMatch: null,
        ifNoneMatch: '*',
        lockTokens: [...lockTokens, lock.token],
      })
    } catch (err) {
      resources.locks.remove(lock.token)
      throw err
    }
  }
  return answer(lock, ctx.deps.now(), exists ? 200 : 201)
}

/** §14.11: the scope, a write lock type, and the owner as the client wrote it. */
function lockInfoOf(root: Element): { scope: LockScope; owner?: string } {
  const scopeEl = davChild(root, 'lockscope')
  const typeEl = davChild(root, 'locktype')
  const scope = scopeEl && childElements(scopeEl)[0]
  if (!scope || !(isDav(scope, 'exclusive') || isDav(scope, 'shared'))) throw badXml('DAV:lockinfo needs DAV:lockscope with DAV:exclusive or DAV:shared')
  if (!typeEl || !childElements(typeEl).some(e => isDav(e, 'write')))
    throw badXml('DAV:lockinfo needs DAV:locktype with DAV:write, the only lock type there is')
  const ownerEl = davChild(root, 'owner')
  const serializer = new (xmlDom().XMLSerializer)()
  let owner: string | undefined
  if (ownerEl) {
    owner = ''
    for (let n = ownerEl.firstChild; n !== null; n = n.nextSibling) owner += serializer.serializeToString(n)
  }
  return { scope: isDav(scope, 'exclusive') ? 'exclusive' : 'shared', ...(owner !== undefined ? { owner } : {}) }
}

export async function handleUnlock(ctx: DavContext, r: DavRequest): Promise<Response> {
  const { resources } = ctx.deps
  const { path } = r.target
  const header = r.request.headers.get('lock-token')?.trim()
  const m = header === undefined ? null : /^<([^>]+)>$/.exec(header)
  if (!m) throw new HttpError(400, 'lock_token_mismatch', 'UNLOCK needs the lock to release in its Lock-Token header: Lock-Token: <urn:uuid:…>')
  // Access first: whether a lock exists is told only to whoever may write the resource
  await resources.admitPropertyChange(actingOf(r), path)
  const lock = resources.locks.get(m[1]!)
  // §9.11.1: the token must name a lock that covers this resource
  if (!lock || !resources.locks.covering(path).some(l => l.token === lock.token)) {
    throw new HttpError(409, 'lock_token_mismatch', 'the Lock-Token names no lock of this resource (it may have expired, or the pod restarted since)')
  }
  resources.locks.remove(lock.token)
  return new Response(null, { status: 204 })
}
