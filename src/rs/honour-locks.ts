// WebDAV locks on the resource server's writes (RFC 4918 §7, §10.4): the If header judged on the request's resource
// (412 when no list of it holds), then a write to a locked resource refused (423) before anything else, access
// included. The operations layer refuses it again, for every face (resources/lock-table.ts, given the tokens with the
// write's preconditions, conditional.ts); asking here first keeps what WebDAV clients rely on: a session that does
// not hold the lock learns so before it is asked to sign in (litmus `notowner_modify` sends its DELETE unsigned).

import { getMeta } from '../store/resources.ts'
import { removing, writing } from '../resources/lock-table.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export async function honourLocks(ctx: RsContext, r: RsRequest, method: 'PUT' | 'PATCH' | 'POST' | 'DELETE'): Promise<void> {
  const { locks } = ctx.deps.resources
  const ifHeader = r.request.headers.get('if')
  if (ifHeader === null && locks.none()) return
  const { path } = r.target
  const tokens = await locks.judge(ifHeader, path)
  if (method === 'POST') return locks.require({ tokens, members: [path] })
  if (method === 'DELETE') return locks.require({ tokens, ...removing(path) })
  // A new resource joins its folder; an existing one only changes
  return locks.require({ tokens, ...writing(path, (await getMeta(ctx.deps.store, path)) !== undefined) })
}
