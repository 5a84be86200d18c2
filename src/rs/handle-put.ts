// PUT: create or replace a document or container, creating missing ancestors (Solid Protocol §5.3).

import { HttpError } from '../http/errors.ts'
import { getMeta, writeResource } from '../store/resources.ts'
import { requiredModes } from '../policy/modes.ts'
import { readRequestBody } from './request-body.ts'
import { contentFromBody } from './new-content.ts'
import { checkNamesFree } from './resource-names.ts'
import { checkWritePreconditions } from './conditional.ts'
import { afterWrite, checkAclWrite } from './acl-writes.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export async function handlePut(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { store, cfg, now, withWriteLock } = ctx.deps
  const { path, url } = r.target
  if (path === '/') throw new HttpError(405, 'root_protected', 'the storage root cannot be overwritten', { headers: { allow: 'GET, HEAD, OPTIONS, POST, PATCH' } })
  const createdContainers = await checkNamesFree(store, path)
  const exists = (await getMeta(store, path)) !== undefined
  const requirements = requiredModes({ method: 'PUT', url, exists, createdContainers: createdContainers.map(p => cfg.baseUrl + p) })
  const decision = await ctx.access.authorize(r.principal, url, requirements, r.origin, challengeLinks(cfg.baseUrl, path))
  const content = await contentFromBody(await readRequestBody(r.request, cfg.maxBodyBytes), path, url)
  if (content.triples) await checkAclWrite(ctx, path, content.triples)

  const result = await withWriteLock(async () => {
    checkWritePreconditions(r.request.headers, await getMeta(store, path))
    await checkNamesFree(store, path)
    return writeResource(store, cfg.baseUrl, path, content, now())
  })
  afterWrite(ctx, path)
  const headers = new Headers({ etag: `"${result.meta.etag}"`, 'wac-allow': decision.wacAllow })
  if (result.created) headers.set('location', url)
  return new Response(null, { status: result.created ? 201 : 204, headers })
}
