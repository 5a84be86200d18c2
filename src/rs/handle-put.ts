// PUT: create or replace a document or container, creating missing ancestors (Solid Protocol §5.3).

import { HttpError } from '../http/errors.ts'
import { getMeta, writeResource, type WriteResult } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { requiredModes } from '../policy/modes.ts'
import { contentFor, discardBody, receiveBody, type IncomingBody } from './new-content.ts'
import { isContainerPath } from '../store/paths.ts'
import { checkNamesFree, checkWritablePath, missingAncestors } from './resource-names.ts'
import { checkWritePreconditions } from './conditional.ts'
import { checkAclWrite } from './acl-writes.ts'
import { checkEssentialWrite } from './essential-writes.ts'
import { answerWrite } from './write-answer.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export async function handlePut(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { store, cfg } = ctx.deps
  const { path, url } = r.target
  if (path === '/') throw new HttpError(405, 'root_protected', 'the storage root cannot be overwritten', { headers: { allow: 'GET, HEAD, OPTIONS, POST, PATCH' } })
  checkWritablePath(path)
  const authorizePut = (exists: boolean, created: readonly string[]) => ctx.access.authorize(r.principal, url,
    requiredModes({ method: 'PUT', url, exists, createdContainers: created.map(p => cfg.baseUrl + p) }), r.origin, challengeLinks(cfg.baseUrl, path))
  const before = await getMeta(store, path)
  const exists = before !== undefined
  const authorized = exists ? [] : await missingAncestors(store, path)
  const decision = await authorizePut(exists, authorized)
  // Checked again under the locks; asked here too, so a failing If-Match does not first upload a film.
  checkWritePreconditions(r.request.headers, before)
  let body: IncomingBody | undefined
  let result: WriteResult
  try {
    body = await receiveBody(ctx, r, isContainerPath(path))
    result = await write(ctx, r, body, exists, authorized, authorizePut)
  } catch (err) {
    discardBody(ctx, body)
    throw err
  }
  return answerWrite(ctx, path, result, decision.wacAllow)
}

async function write(ctx: RsContext, r: RsRequest, body: IncomingBody, exists: boolean, authorized: readonly string[],
  authorizePut: (exists: boolean, created: readonly string[]) => Promise<unknown>) {
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
    if ((meta !== undefined) !== exists || created.some(c => !authorized.includes(c))) await authorizePut(meta !== undefined, created)
    return writeResource(store, cfg.baseUrl, path, content, now())
  })
}
