// COPY and MOVE (RFC 4918 §9.8, §9.9) within this pod. A MOVE is the operations layer's move (a folder with
// everything in it, one batch, its dead properties carried by the store); a COPY is the layer's copy of a tree
// (resources/copy-tree.ts: each resource at its new name, a file's bytes given a second name where the store can, each
// decided for the principal), its dead properties copied here, and a member that cannot be copied told in a 207
// Multi-Status while the others are (§9.8.8). ACLs never go along (access is not content).

import { HttpError } from '../http/errors.ts'
import { resolveTarget } from '../store/target.ts'
import { getMeta } from '../store/resources.ts'
import { isContainerPath, parentPath, twinPath } from '../store/paths.ts'
import { membershipOf } from '../resources/lock-table.ts'
import { submittedLocksOf } from '../resources/if-header.ts'
import { actingOf, depthOf, type DavContext, type DavRequest } from './dav-context.ts'
import { readPropertyTree } from '../store/dead-properties.ts'
import { escapeXml, multistatus, responseFor, statusLine } from './multistatus.ts'

/** §10.3: the Destination as a stored path on this pod; 502 for another server (§9.8.5). */
function destinationOf(ctx: DavContext, r: DavRequest, sourceIsFolder: boolean): string {
  const header = r.request.headers.get('destination')
  if (header === null || header.trim() === '')
    throw new HttpError(400, 'invalid_request', `${r.request.method} needs a Destination header naming where to (RFC 4918 §10.3)`)
  let url: URL
  try {
    url = new URL(header.trim(), ctx.deps.cfg.baseUrl)
  } catch {
    throw new HttpError(400, 'invalid_request', 'the Destination header is not a URL')
  }
  const here = [new URL(ctx.deps.cfg.baseUrl).origin, new URL(r.request.url).origin]
  if (!here.includes(url.origin))
    throw new HttpError(502, 'destination_elsewhere', `the Destination is on ${url.host}, not on this pod: copy or move it through your computer instead`)
  const path = resolveTarget(ctx.deps.cfg.baseUrl, url.pathname).path
  // A folder keeps its trailing slash wherever it goes, a file has none (Solid Protocol §3.1; a client may name either)
  return path.endsWith('/') === sourceIsFolder || path === '/' ? path : twinPath(path)
}

/** §10.6: Overwrite T (the default) or F. */
function overwriteOf(headers: Headers): boolean {
  const value = headers.get('overwrite')?.trim().toUpperCase()
  if (value === undefined || value === 'T') return true
  if (value === 'F') return false
  throw new HttpError(400, 'invalid_request', 'the Overwrite header must be T or F (RFC 4918 §10.6)')
}

export async function handleCopyMove(ctx: DavContext, r: DavRequest, method: 'COPY' | 'MOVE'): Promise<Response> {
  const { resources, store } = ctx.deps
  const who = actingOf(r)
  const from = r.target.path
  const sourceIsFolder = isContainerPath(from)
  const to = destinationOf(ctx, r, sourceIsFolder)
  const depth = depthOf(r.request.headers, 'infinity')
  // §9.8.3, §9.9.2: a folder is copied with Depth 0 or infinity, moved only whole
  if (sourceIsFolder && (depth === '1' || (method === 'MOVE' && depth !== 'infinity'))) {
    throw new HttpError(400, 'invalid_request', `${method} of a folder takes Depth ${method === 'MOVE' ? 'infinity' : '0 or infinity'}`)
  }
  if (to === from) throw new HttpError(403, 'same_destination', `the Destination is ${from} itself`)
  if (sourceIsFolder && to.startsWith(from)) throw new HttpError(400, 'move_into_itself', `a folder cannot be put inside itself (${to} is inside ${from})`)
  const overwrite = overwriteOf(r.request.headers)

  // What is there now, under either form of the name: a COPY or MOVE with Overwrite replaces a folder by a file and back
  const existing = (await getMeta(store, to)) ? to : (await getMeta(store, twinPath(to))) ? twinPath(to) : undefined
  // Access before locks (a 423 would tell whoever may not touch them that they exist): Read on the source for a COPY,
  // Write on it for a MOVE (the layer's move then decides all that deleting it needs); Write on the destination, and
  // on what is there, before its existence (412), its parent's absence (409) or a lock on its folder (423) is told
  if (method === 'COPY') await resources.read(who, from)
  else await resources.admitPropertyChange(who, from)
  await resources.admitWriteAt(who, to)
  if (existing !== undefined && existing !== to) await resources.admitWriteAt(who, existing)
  // Every lock the whole operation touches, asked before any part of it is done; the If header judged on the source
  const lockTokens = await resources.locks.admit({
    ...submittedLocksOf(r.request.headers),
    path: from,
    changes: [...(method === 'MOVE' ? [from] : []), to, ...(existing !== undefined ? [existing] : [])],
    members: [...(method === 'MOVE' ? membershipOf(from) : []), ...(existing ? [] : membershipOf(to))],
    trees: [...(method === 'MOVE' && sourceIsFolder ? [from] : []), ...(existing !== undefined && isContainerPath(existing) ? [existing] : [])],
  })
  if (existing !== undefined && !overwrite) throw new HttpError(412, 'precondition_failed', `${to} exists and Overwrite is F`)
  const parent = parentPath(to)
  if (parent !== undefined && (await getMeta(store, parent))?.kind !== 'container')
    throw new HttpError(409, 'missing_parent', `${parent} does not exist: make it first`)

  if (existing !== undefined) {
    // §9.8.4, §9.9.3: what was there is deleted first, as a DELETE of it would be
    if (isContainerPath(existing)) await resources.deleteTree(who, existing, undefined, { lockTokens })
    else await resources.delete(who, existing, { ifMatch: null, ifNoneMatch: null, lockTokens })
  }
  if (method === 'MOVE') await resources.move(who, from, to, { lockTokens })
  else {
    const preconditions = { ifMatch: null, ifNoneMatch: null, lockTokens }
    const failed = await resources.copyTree(who, from, to, { deep: depth === 'infinity', preconditions })
    const skipped = (p: string) => failed.some(f => f.path === p || (f.path.endsWith('/') && p.startsWith(f.path)))
    for (const p of await readPropertyTree(store, from)) {
      if ((depth === '0' && p.path !== from) || skipped(p.path)) continue
      await ctx.props.set(to + p.path.slice(from.length), p.properties)
    }
    // §9.8.8: the members that failed, each with its status (by its source URL: it has no destination), the rest copied
    if (failed.length > 0) {
      return multistatus(
        failed.map(f =>
          responseFor(
            f.path,
            `<D:status>${statusLine(f.status)}</D:status><D:responsedescription>${escapeXml(`${f.code}: ${f.description}`)}</D:responsedescription>`,
          ),
        ),
      )
    }
  }
  return new Response(null, existing !== undefined ? { status: 204 } : { status: 201, headers: { location: ctx.deps.cfg.baseUrl + to } })
}
