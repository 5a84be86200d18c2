// PATCH with N3 Patch or SPARQL Update: all or nothing, creating the document if missing. Two steps: `admitPatch`
// before a byte of the body is read (every PATCH needs at least Append), `patch` with the patch received whole.

import { HttpError } from '../http/errors.ts'
import { getMeta, readTriples, writeResource, type WriteResult } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { isContainerPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { parsePatchOffThread } from '../rdf/parse-off-thread.ts'
import { readGraphStatements } from '../rdf/graph-statements.ts'
import { sameTriples } from '../rdf/triple-patterns.ts'
import { rdfContent } from './new-content.ts'
import { checkNamesFree, checkWritablePath, missingAncestors } from './resource-names.ts'
import { checkPreconditions, type Preconditions } from './preconditions.ts'
import { checkAclWrite } from './acl-writes.ts'
import { checkEssentialWrite } from './essential-writes.ts'
import { authorOf, decide, type Acting, type ResourcesDeps } from './acting.ts'
import { writing, type LockTable } from './lock-table.ts'

/** What every PATCH needs before its body is known (what it needs beyond is known only from the body). */
export const AT_LEAST_APPEND = { read: false, append: true, write: false } as const

/** A patch as received: its media type (text/n3 or application/sparql-update, checked by the face) and its text. */
export interface PatchText {
  readonly mediaType: string
  readonly text: string
}

export function makePatchDocument(deps: ResourcesDeps, locks: LockTable) {
  const { store, cfg, now, withResourceLocks } = deps

  /** Before the body: the path, then Append on the target, so anyone without it is refused whatever the body would have been. */
  async function admitPatch(who: Acting, path: string): Promise<void> {
    checkWritablePath(path)
    await decide(deps, who, path, requiredModes({ method: 'PATCH', url: cfg.baseUrl + path, exists: true, patch: AT_LEAST_APPEND }))
  }

  /** Applies the patch (after `admitPatch`): the new state and the target's WAC-Allow. */
  async function patch(who: Acting, path: string, received: PatchText, preconditions: Preconditions): Promise<{ result: WriteResult; wacAllow: string }> {
    const url = cfg.baseUrl + path
    const plan = await parsePatchOffThread(received.text, received.mediaType, url)
    const authorizePatch = (exists: boolean, created: readonly string[]) =>
      decide(deps, who, path, requiredModes({ method: 'PATCH', url, exists, patch: plan.needs, createdContainers: created.map(p => cfg.baseUrl + p) }))
    // Nothing about the target (binary, name clash) is told before access is granted.
    const exists = (await getMeta(store, path)) !== undefined
    const authorized = exists ? [] : await missingAncestors(store, path)
    const decision = await authorizePatch(exists, authorized)

    const result = await withResourceLocks(
      () => writeLocks(store, path),
      async (): Promise<WriteResult> => {
        const meta = await getMeta(store, path)
        if (meta?.kind === 'binary') {
          throw new HttpError(405, 'method_not_allowed', 'only RDF documents can be patched; replace this binary resource with PUT', {
            headers: { allow: 'GET, HEAD, OPTIONS, PUT, DELETE' },
          })
        }
        checkPreconditions(preconditions, meta)
        await locks.admit({ ...preconditions, path, ...writing(path, meta !== undefined) })
        const created = meta ? [] : await checkNamesFree(store, path)
        if ((meta !== undefined) !== exists || created.some(c => !authorized.includes(c))) await authorizePatch(meta !== undefined, created)
        // A patch acts on the default graph; the document's own named graphs are kept as they are.
        const before = readGraphStatements(meta ? await readTriples(store, cfg.baseUrl, path) : [])
        const after = plan.apply(before.triples)
        // A patch that changes nothing (a SPARQL WHERE without a solution, an insert already there) writes
        // nothing: the state, its ETag and Last-Modified stay (RFC 9110 §8.8.3: the tag names a state), no notification.
        if (meta && sameTriples(before.triples, after)) return { meta, created: false, createdContainers: [] }
        const content = await rdfContent(isContainerPath(path) ? 'container' : 'rdf', after, url, meta?.prefixes, before.namedGraphs)
        await checkAclWrite(deps, path, content.triples!)
        await checkEssentialWrite(deps, path, content)
        return writeResource(store, cfg.baseUrl, path, content, now(), authorOf(who))
      },
    )
    return { result, wacAllow: decision.wacAllow }
  }

  return { admitPatch, patch }
}
