// POST to a container: the server mints a child name from the Slug hint (Solid Protocol §5.3).

import { HttpError } from '../http/errors.ts'
import { getMeta, writeResource } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { isContainerPath, twinPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { LDP } from '../rdf/namespaces.ts'
import { contentFor, discardBody, receiveBody, type IncomingBody } from './new-content.ts'
import type { WriteResult } from '../store/resources.ts'
import { checkWritePreconditions } from './conditional.ts'
import { nameFromSlug } from './resource-names.ts'
import { isReservedPath } from '../http/pod-paths.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

/** `Link: <ldp#BasicContainer>; rel="type"` (or ldp#Container) on the request asks for a container. */
export function wantsContainer(linkHeader: string | null): boolean {
  if (!linkHeader) return false
  return linkHeader.split(',').some(l => {
    const m = /<([^>]*)>\s*;\s*rel\s*=\s*"?type"?/i.exec(l.trim())
    return m !== null && (m[1] === LDP('BasicContainer') || m[1] === LDP('Container'))
  })
}

/** What POST decided before any byte of the body is read. */
export interface PostPlan {
  readonly container: boolean
  readonly wacAllow: string
}

export async function handlePost(ctx: RsContext, r: RsRequest): Promise<Response> {
  const plan = await planPost(ctx, r)
  // A body refused while it arrives leaves nothing behind (receiveBody); one received is the commit's to keep or drop.
  return commitPost(ctx, r, plan, await receiveBody(ctx, r, plan.container))
}

/** Everything POST decides from the headers; a resumable upload asks this before its first byte and again at its end. */
export async function planPost(ctx: RsContext, r: RsRequest): Promise<PostPlan> {
  const { cfg } = ctx.deps
  const { path, url } = r.target
  // Append on the target before the method is judged (docs/architecture.md, "Access before the method"): a 405
  // and its Allow would tell an agent without access that the target is no container, or a missing one.
  const decision = await ctx.access.authorize(r.principal, url, requiredModes({ method: 'POST', url, exists: true }), r.origin, challengeLinks(cfg.baseUrl, path))
  if (!isContainerPath(path)) {
    throw new HttpError(405, 'method_not_allowed', 'POST creates members of a container; this is not a container (its URL does not end in /)',
      { headers: { allow: 'GET, HEAD, OPTIONS, PUT, PATCH, DELETE', 'wac-allow': decision.wacAllow } })
  }
  return { container: wantsContainer(r.request.headers.get('link')), wacAllow: decision.wacAllow }
}

/** Creates the member from a received body as `planPost` planned; the body is discarded when the write is refused. */
export async function commitPost(ctx: RsContext, r: RsRequest, plan: PostPlan, body: IncomingBody): Promise<Response> {
  let created: { path: string; result: WriteResult }
  try {
    created = await createMember(ctx, r, body, plan.container)
  } catch (err) {
    discardBody(ctx, body)
    throw err
  }
  return new Response(null, {
    status: 201,
    headers: { location: ctx.deps.cfg.baseUrl + created.path, etag: `"${created.result.meta.etag}"`, 'wac-allow': plan.wacAllow },
  })
}

async function createMember(ctx: RsContext, r: RsRequest, body: IncomingBody, container: boolean): Promise<{ path: string; result: WriteResult }> {
  const { store, cfg, now, withResourceLocks } = ctx.deps
  const { path } = r.target
  const hint = nameFromSlug(r.request.headers.get('slug'))
  // A Slug may not mint a name of the pod's own endpoints (`.well-known` under the root).
  const base = isReservedPath(path + hint) ? crypto.randomUUID() : hint

  const suffix = container ? '/' : ''
  const isTaken = async (p: string) => (await getMeta(store, p)) !== undefined || (await getMeta(store, twinPath(p))) !== undefined
  // A taken name (or its document/container twin) gets a random suffix: POST never overwrites.
  const freeName = async () => {
    let p = `${path}${base}${suffix}`
    while (await isTaken(p)) p = `${path}${base}-${crypto.randomUUID().slice(0, 8)}${suffix}`
    return p
  }
  // Parsing happens before the locks (relative IRIs need the minted URL), so a large body does
  // not hold up other writes; the name is re-checked under the locks and re-parsed only on a race.
  let childPath = await freeName()
  let parsedFor = childPath
  let content = await contentFor(body, childPath, cfg.baseUrl + childPath)
  // A name taken meanwhile gets a new one, and the locks follow it (resource-locks.ts re-plans).
  const plan = async () => {
    if (await isTaken(childPath)) childPath = await freeName()
    return writeLocks(store, childPath)
  }

  const result = await withResourceLocks(plan, async () => {
    const meta = await getMeta(store, path)
    if (!meta) throw new HttpError(404, 'not_found', `the container ${path} does not exist`)
    checkWritePreconditions(r.request.headers, meta)
    if (parsedFor !== childPath) {
      content = await contentFor(body, childPath, cfg.baseUrl + childPath)
      parsedFor = childPath
    }
    return writeResource(store, cfg.baseUrl, childPath, content, now())
  })
  return { path: childPath, result }
}
