// PUT: create or replace a document or container, creating missing ancestors (Solid Protocol §5.3). Decided in
// two steps so that nothing is received before access is granted: `planPut` from the request's facts alone,
// `commitPut` with the received body, deciding again under the locks (a resumable upload plans at its start
// and at its end, rs/upload-resource.ts).

import { HttpError } from '../http/errors.ts'
import { isContainerPath } from '../store/paths.ts'
import { getMeta, writeResource, type WriteResult } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { requiredModes } from '../policy/modes.ts'
import { checkBodyTypeFor, contentFor, discardBody, type IncomingBody } from './new-content.ts'
import { checkNamesFree, checkWritablePath, missingAncestors } from './resource-names.ts'
import { checkPreconditions, NO_PRECONDITIONS, type Preconditions } from './preconditions.ts'
import { receiveContent, type OutgoingBody } from './receive-content.ts'
import { checkAclWrite } from './acl-writes.ts'
import { checkEssentialWrite } from './essential-writes.ts'
import { authorOf, decide, type Acting, type ResourcesDeps } from './acting.ts'
import { writing, type LockTable } from './lock-table.ts'

/** What a PUT's request says before its body: its preconditions and the Content-Type it declares. */
export interface PutFacts {
  readonly preconditions: Preconditions
  readonly contentType: string | null
}

/** What PUT decided before any byte of the body is read; `commitPut` checks it again under the locks. */
export interface PutPlan {
  readonly exists: boolean
  /** Containers this write creates that the agent was authorized for. */
  readonly authorized: readonly string[]
  readonly wacAllow: string
}

export function makePutResource(deps: ResourcesDeps, locks: LockTable) {
  const { store, cfg, now, withResourceLocks } = deps
  const authorize = (who: Acting, path: string, exists: boolean, created: readonly string[]) =>
    decide(deps, who, path, requiredModes({ method: 'PUT', url: cfg.baseUrl + path, exists, createdContainers: created.map(p => cfg.baseUrl + p) }))

  /** Everything PUT decides before the body: the path, access (with the containers it would create) and the preconditions. */
  async function planPut(who: Acting, path: string, facts: PutFacts): Promise<PutPlan> {
    checkWritablePath(path)
    const before = await getMeta(store, path)
    const exists = before !== undefined
    const authorized = exists ? [] : await missingAncestors(store, path)
    const decision = await authorize(who, path, exists, authorized)
    // After access, as every refusal of the method (docs/architecture.md, "Access before the method")
    if (path === '/')
      throw new HttpError(405, 'root_protected', 'the storage root cannot be overwritten', { headers: { allow: 'GET, HEAD, OPTIONS, POST, PATCH' } })
    // Checked again under the locks; asked here too, so a failing If-Match does not first upload a film.
    checkPreconditions(facts.preconditions, before)
    await locks.admit({ ...facts.preconditions, path, ...writing(path, exists) })
    checkBodyTypeFor(path, facts.contentType)
    return { exists, authorized, wacAllow: decision.wacAllow }
  }

  /** Writes a received body as `planPut` planned; the body is discarded when the write is refused. */
  async function commitPut(who: Acting, path: string, plan: PutPlan, body: IncomingBody, preconditions: Preconditions): Promise<WriteResult> {
    try {
      return await write(who, path, plan, body, preconditions)
    } catch (err) {
      discardBody(store, body)
      throw err
    }
  }

  async function write(who: Acting, path: string, plan: PutPlan, body: IncomingBody, preconditions: Preconditions) {
    const content = await contentFor(body, path, cfg.baseUrl + path)
    if (content.triples) await checkAclWrite(deps, path, content.triples)
    return withResourceLocks(
      () => writeLocks(store, path),
      async () => {
        const meta = await getMeta(store, path)
        checkPreconditions(preconditions, meta)
        await locks.admit({ ...preconditions, path, ...writing(path, meta !== undefined) })
        // Under the locks: the ACLs and the WebID document are judged as this write would leave them.
        await checkEssentialWrite(deps, path, content)
        const created = await checkNamesFree(store, path)
        // The tree may have changed while the body was read: what this write now creates needs access too.
        if ((meta !== undefined) !== plan.exists || created.some(c => !plan.authorized.includes(c))) await authorize(who, path, meta !== undefined, created)
        return writeResource(store, cfg.baseUrl, path, content, now(), authorOf(who))
      },
    )
  }

  return { planPut, commitPut }
}

/** PUT in one step, for a face that holds the body or streams it from elsewhere (resources.ts `put`): planned, received, committed. */
export const putInOneStep =
  (deps: ResourcesDeps, puts: ReturnType<typeof makePutResource>) =>
  async (who: Acting, path: string, contentType: string | null, body: OutgoingBody, preconditions: Preconditions = NO_PRECONDITIONS): Promise<WriteResult> => {
    const plan = await puts.planPut(who, path, { preconditions, contentType })
    return puts.commitPut(who, path, plan, await receiveContent(deps, isContainerPath(path), contentType, body), preconditions)
  }
