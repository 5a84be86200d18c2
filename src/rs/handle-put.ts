// PUT: create or replace a document or container, creating missing ancestors (Solid Protocol §5.3).

import { HttpError } from '../http/errors.ts'
import { getMeta, writeResource, type WriteResult } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { requiredModes } from '../policy/modes.ts'
import { checkBodyTypeFor, contentFor, discardBody, receiveBody, type IncomingBody } from './new-content.ts'
import { isContainerPath } from '../store/paths.ts'
import { checkNamesFree, checkWritablePath, missingAncestors } from './resource-names.ts'
import { checkWritePreconditions } from './conditional.ts'
import { checkAclWrite } from './acl-writes.ts'
import { checkEssentialWrite } from './essential-writes.ts'
import { answerWrite } from './write-answer.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

/** What PUT decided before any byte of the body is read; `write` checks it again under the locks. */
export interface PutPlan {
  readonly exists: boolean
  /** Containers this write creates that the agent was authorized for. */
  readonly authorized: readonly string[]
  readonly wacAllow: string
}

export async function handlePut(ctx: RsContext, r: RsRequest): Promise<Response> {
  const plan = await planPut(ctx, r)
  // A body refused while it arrives leaves nothing behind (receiveBody); one received is the commit's to keep or drop.
  return commitPut(ctx, r, plan, await receiveBody(ctx, r, isContainerPath(r.target.path)))
}

/**
 * Everything PUT decides from the headers: the path, access (with the containers it would create) and the
 * preconditions. A resumable upload asks this before its first byte and again when it completes.
 */
export async function planPut(ctx: RsContext, r: RsRequest): Promise<PutPlan> {
  const { store } = ctx.deps
  const { path } = r.target
  checkWritablePath(path)
  const before = await getMeta(store, path)
  const exists = before !== undefined
  const authorized = exists ? [] : await missingAncestors(store, path)
  const decision = await authorizePut(ctx, r, exists, authorized)
  // After access, as every refusal of the method (docs/architecture.md, "Access before the method")
  if (path === '/') throw new HttpError(405, 'root_protected', 'the storage root cannot be overwritten', { headers: { allow: 'GET, HEAD, OPTIONS, POST, PATCH' } })
  // Checked again under the locks; asked here too, so a failing If-Match does not first upload a film.
  checkWritePreconditions(r.request.headers, before)
  checkBodyTypeFor(path, r.request.headers)
  return { exists, authorized, wacAllow: decision.wacAllow }
}

/** Writes a received body as `planPut` planned; the body is discarded when the write is refused. */
export async function commitPut(ctx: RsContext, r: RsRequest, plan: PutPlan, body: IncomingBody): Promise<Response> {
  let result: WriteResult
  try {
    result = await write(ctx, r, body, plan.exists, plan.authorized)
  } catch (err) {
    discardBody(ctx, body)
    throw err
  }
  return answerWrite(ctx, r.target.path, result, plan.wacAllow)
}

function authorizePut(ctx: RsContext, r: RsRequest, exists: boolean, created: readonly string[]) {
  const { cfg } = ctx.deps
  const { path, url } = r.target
  return ctx.access.authorize(r.principal, url,
    requiredModes({ method: 'PUT', url, exists, createdContainers: created.map(p => cfg.baseUrl + p) }), r.origin, challengeLinks(cfg.baseUrl, path))
}

async function write(ctx: RsContext, r: RsRequest, body: IncomingBody, exists: boolean, authorized: readonly string[]) {
  const { store, cfg, now, withResourceLocks } = ctx.deps
  const { path, url } = r.target
  const content = await contentFor(body, path, url)
  if (content.triples) await checkAclWrite(ctx, path, content.triples)
  return withResourceLocks(() => writeLocks(store, path), async () => {
    const meta = await getMeta(store, path)
    checkWritePreconditions(r.request.headers, meta)
    // Under the locks: the ACLs and the WebID document are judged as this write would leave them.
    await checkEssentialWrite(ctx, path, content)
    const created = await checkNamesFree(store, path)
    // The tree may have changed while the body was read: what this write now creates needs access too.
    if ((meta !== undefined) !== exists || created.some(c => !authorized.includes(c))) await authorizePut(ctx, r, meta !== undefined, created)
    return writeResource(store, cfg.baseUrl, path, content, now())
  })
}
