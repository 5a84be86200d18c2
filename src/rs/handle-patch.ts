// PATCH with N3 Patch or SPARQL Update: all or nothing, creating the document if missing.

import { HttpError } from '../http/errors.ts'
import { getMeta, readTriples, writeResource } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { isContainerPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { parsePatch } from '../rdf/patch.ts'
import { readRequestBody, decodeUtf8 } from './request-body.ts'
import { rdfContent } from './new-content.ts'
import { checkNamesFree, checkWritablePath, missingAncestors } from './resource-names.ts'
import { checkWritePreconditions } from './conditional.ts'
import { checkAclWrite } from './acl-writes.ts'
import { answerWrite } from './write-answer.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export async function handlePatch(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { store, cfg, now, withResourceLocks } = ctx.deps
  const { path, url } = r.target
  checkWritablePath(path)
  const body = await readRequestBody(r.request, cfg.maxBodyBytes)
  if (!body.mediaType) throw new HttpError(400, 'missing_content_type', 'a PATCH needs a Content-Type: text/n3 or application/sparql-update')
  const plan = parsePatch(decodeUtf8(body.bytes), body.mediaType, url)
  const authorizePatch = (exists: boolean, created: readonly string[]) => ctx.access.authorize(r.principal, url,
    requiredModes({ method: 'PATCH', url, exists, patch: plan.needs, createdContainers: created.map(p => cfg.baseUrl + p) }),
    r.origin, challengeLinks(cfg.baseUrl, path))
  // Nothing about the target (binary, name clash) is told before access is granted.
  const exists = (await getMeta(store, path)) !== undefined
  const authorized = exists ? [] : await missingAncestors(store, path)
  const decision = await authorizePatch(exists, authorized)

  const result = await withResourceLocks(() => writeLocks(store, path), async () => {
    const meta = await getMeta(store, path)
    if (meta?.kind === 'binary') {
      throw new HttpError(405, 'method_not_allowed', 'only RDF documents can be patched; replace this binary resource with PUT',
        { headers: { allow: 'GET, HEAD, OPTIONS, PUT, DELETE' } })
    }
    checkWritePreconditions(r.request.headers, meta)
    const created = meta ? [] : await checkNamesFree(store, path)
    if ((meta !== undefined) !== exists || created.some(c => !authorized.includes(c))) await authorizePatch(meta !== undefined, created)
    const before = meta ? await readTriples(store, cfg.baseUrl, path) : []
    const content = await rdfContent(isContainerPath(path) ? 'container' : 'rdf', plan.apply(before), url, meta?.prefixes)
    await checkAclWrite(ctx, path, content.triples!)
    return writeResource(store, cfg.baseUrl, path, content, now())
  })
  return answerWrite(ctx, path, result, decision.wacAllow)
}
