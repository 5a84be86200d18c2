// PATCH with N3 Patch or SPARQL Update: all or nothing, creating the document if missing.

import { HttpError } from '../http/errors.ts'
import { getMeta, readTriples, writeResource } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { isContainerPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { checkPatchType } from '../rdf/patch.ts'
import { parsePatchOffThread } from '../rdf/parse-off-thread.ts'
import { mediaTypeOf } from '../rdf/media-types.ts'
import { readGraphStatements } from '../rdf/graph-statements.ts'
import { sameTriples } from '../rdf/triple-patterns.ts'
import { readRequestBody, decodeUtf8 } from '../auth/request-body.ts'
import { rdfContent } from './new-content.ts'
import { checkNamesFree, checkWritablePath, missingAncestors } from './resource-names.ts'
import { checkWritePreconditions } from './conditional.ts'
import { checkAclWrite } from './acl-writes.ts'
import { checkEssentialWrite } from './essential-writes.ts'
import { answerWrite } from './write-answer.ts'
import { challengeLinks } from './resource-headers.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

export const AT_LEAST_APPEND = { read: false, append: true, write: false } as const

export async function handlePatch(ctx: RsContext, r: RsRequest): Promise<Response> {
  const { store, cfg, now, withResourceLocks } = ctx.deps
  const { path, url } = r.target
  checkWritablePath(path)
  // Access before a byte of the body is read: every PATCH needs at least Append on its target, so
  // anyone without it is refused at once, whatever the body would have been.
  await ctx.access.authorize(r.principal, url, requiredModes({ method: 'PATCH', url, exists: true, patch: AT_LEAST_APPEND }),
    r.origin, challengeLinks(cfg.baseUrl, path))
  const mediaType = mediaTypeOf(r.request.headers.get('content-type'))
  if (!mediaType) throw new HttpError(400, 'missing_content_type', 'a PATCH needs a Content-Type: text/n3 or application/sparql-update')
  checkPatchType(mediaType)
  // A patch is parsed whole in memory, so it has its own, smaller limit (--max-patch-bytes).
  const body = await readRequestBody(r, cfg.maxPatchBytes, 'a PATCH body')
  const plan = await parsePatchOffThread(decodeUtf8(body.bytes), mediaType, url)
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
    // A patch acts on the default graph; the document's own named graphs are kept as they are.
    const before = readGraphStatements(meta ? await readTriples(store, cfg.baseUrl, path) : [])
    const after = plan.apply(before.triples)
    // A patch that changes nothing (a SPARQL WHERE without a solution, an insert already there) writes
    // nothing: the state, its ETag and Last-Modified stay (RFC 9110 §8.8.3: the tag names a state), no notification.
    if (meta && sameTriples(before.triples, after)) return { meta, created: false, createdContainers: [] }
    const content = await rdfContent(isContainerPath(path) ? 'container' : 'rdf', after, url, meta?.prefixes, before.namedGraphs)
    await checkAclWrite(ctx, path, content.triples!)
    await checkEssentialWrite(ctx, path, content)
    return writeResource(store, cfg.baseUrl, path, content, now())
  })
  return answerWrite(ctx, path, result, decision.wacAllow)
}
