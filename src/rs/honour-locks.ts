// WebDAV locks on the resource server's own writes (RFC 4918 §7): a PUT, PATCH, POST or DELETE of a locked resource
// (or one that adds to or removes from a locked folder) needs the lock's token in its If header, which is judged
// too (§10.4). The lock table is the operations layer's (resources/lock-table.ts), shared with the dav role.

import { getMeta } from '../store/resources.ts'
import { isContainerPath } from '../store/paths.ts'
import { membershipOf } from '../resources/lock-table.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export async function honourLocks(ctx: RsContext, r: RsRequest, method: 'PUT' | 'PATCH' | 'POST' | 'DELETE'): Promise<void> {
  const { locks } = ctx.deps.resources
  const ifHeader = r.request.headers.get('if')
  if (ifHeader === null && locks.none()) return
  const { path } = r.target
  if (method === 'POST') return locks.admit({ ifHeader, path, members: [path] })
  if (method === 'DELETE') return locks.admit({ ifHeader, path, changes: [path], members: membershipOf(path), ...(isContainerPath(path) ? { trees: [path] } : {}) })
  // A new resource joins its folder; an existing one only changes
  const exists = (await getMeta(ctx.deps.store, path)) !== undefined
  return locks.admit({ ifHeader, path, changes: [path], members: exists ? [] : membershipOf(path) })
}
