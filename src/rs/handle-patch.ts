// PATCH with N3 Patch or SPARQL Update: all or nothing, creating the document if missing.

import { HttpError } from '../http/errors.ts'
import { getMeta, readTriples, writeResource } from '../store/resources.ts'
import { isContainerPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { parsePatch } from '../rdf/patch.ts'
import { readRequestBody, decodeUtf8 } from './request-body.ts'
import { rdfContent } from './new-content.ts'
import { checkNamesFree } from './resource-names.ts'
import { checkWritePreconditions } from './conditional.ts'
import { afterWrite, checkAclWrite } from './acl-writes.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export async function handlePatch(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { store, cfg, now, withWriteLock } = ctx.deps
  const { path, url } = r.target
  const existing = await getMeta(store, path)
  if (existing?.kind === 'binary') {
    throw new HttpError(405, 'method_not_allowed', 'only RDF documents can be patched; replace this binary resource with PUT',
      { headers: { allow: 'GET, HEAD, OPTIONS, PUT, DELETE' } })
  }
  const createdContainers = existing ? [] : await checkNamesFree(store, path)
  const body = await readRequestBody(r.request, cfg.maxBodyBytes)
  if (!body.mediaType) throw new HttpError(400, 'missing_content_type', 'a PATCH needs a Content-Type: text/n3 or application/sparql-update')
  const plan = parsePatch(decodeUtf8(body.bytes), body.mediaType, url)
  const requirements = requiredModes({ method: 'PATCH', url, exists: existing !== undefined, patch: plan.needs,
    createdContainers: createdContainers.map(p => cfg.baseUrl + p) })
  const decision = await ctx.access.authorize(r.principal, url, requirements, r.origin, challengeLinks(cfg.baseUrl, path))

  const result = await withWriteLock(async () => {
    const meta = await getMeta(store, path)
    checkWritePreconditions(r.request.headers, meta)
    if (!meta) await checkNamesFree(store, path)
    const before = meta ? await readTriples(store, cfg.baseUrl, path) : []
    const after = plan.apply(before)
    const kind = isContainerPath(path) ? 'container' : 'rdf'
    const content = rdfContent(kind, after, url, meta?.size ?? 0)
    await checkAclWrite(ctx, path, after)
    return writeResource(store, cfg.baseUrl, path, content, now())
  })
  afterWrite(ctx, path)
  const headers = new Headers({ etag: `"${result.meta.etag}"`, 'wac-allow': decision.wacAllow })
  if (result.created) headers.set('location', url)
  return new Response(null, { status: result.created ? 201 : 204, headers })
}
