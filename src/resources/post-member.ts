// POST to a container: the server mints a child name from the Slug hint (Solid Protocol §5.3). Two steps as PUT's:
// `planPost` before the body (access, then the method), `commitPost` with the received body.

import { HttpError } from '../http/errors.ts'
import { getMeta, writeResource, type WriteResult } from '../store/resources.ts'
import { writeLocks } from '../store/resource-locks.ts'
import { isContainerPath, twinPath } from '../store/paths.ts'
import { requiredModes } from '../policy/modes.ts'
import { isReservedPath } from '../http/pod-paths.ts'
import { contentFor, discardBody, type IncomingBody } from './new-content.ts'
import { receiveContent, type OutgoingBody } from './receive-content.ts'
import { checkPreconditions, type Preconditions } from './preconditions.ts'
import { nameFromSlug, reservedPathError } from './resource-names.ts'
import { authorOf, decide, type Acting, type ResourcesDeps } from './acting.ts'
import type { LockTable, SubmittedLocks } from './lock-table.ts'
import { encodeSegment } from '../store/target.ts'
import { readableName } from '../lib/readable-path.ts'
import { NUMBERED_NAMES_TRIED, numberedName } from '../lib/numbered-name.ts'

/** What POST decided before any byte of the body is read. */
export interface PostPlan {
  /** The member is a container (the request asked for one with its Link type). */
  readonly container: boolean
  readonly wacAllow: string
}

/** What a POST's request says beside its body: the name it hints (Slug, as sent) and its preconditions on the container. */
export interface PostFacts {
  readonly slug: string | null
  readonly preconditions: Preconditions
}

export interface PostedMember {
  readonly path: string
  readonly result: WriteResult
}

export function makePostMember(deps: ResourcesDeps, locks: LockTable) {
  const { store, cfg, now, withResourceLocks } = deps

  /** Everything POST decides before the body; a resumable upload asks this before its first byte and again at its end. */
  async function planPost(who: Acting, path: string, container: boolean, submitted: SubmittedLocks = {}): Promise<PostPlan> {
    // Whoever asks, before access (as PUT's checkWritablePath): the pod's own endpoints are never written.
    if (isReservedPath(path)) throw reservedPathError(path)
    // Append on the target before the method is judged (docs/architecture.md, "Access before the method"): a 405
    // and its Allow would tell an agent without access that the target is no container, or a missing one.
    const decision = await decide(deps, who, path, requiredModes({ method: 'POST', url: cfg.baseUrl + path, exists: true }))
    if (!isContainerPath(path)) {
      throw new HttpError(405, 'method_not_allowed', 'POST creates members of a container; this is not a container (its URL does not end in /)', {
        headers: { allow: 'GET, HEAD, OPTIONS, PUT, PATCH, DELETE', 'wac-allow': decision.wacAllow },
      })
    }
    // A new member joins the folder (RFC 4918 §7.4): asked before the body too, so a locked folder is not sent a film
    await locks.admit({ ...submitted, path, members: [path] })
    return { container, wacAllow: decision.wacAllow }
  }

  /** Creates the member from a received body as `planPost` planned; the body is discarded when the write is refused. */
  async function commitPost(who: Acting, path: string, plan: PostPlan, body: IncomingBody, facts: PostFacts): Promise<PostedMember> {
    try {
      return await createMember(who, path, body, plan.container, facts)
    } catch (err) {
      discardBody(store, body)
      throw err
    }
  }

  async function createMember(who: Acting, path: string, body: IncomingBody, container: boolean, facts: PostFacts): Promise<PostedMember> {
    const hint = nameFromSlug(facts.slug)
    // A Slug may not mint a name of the pod's own endpoints (`.well-known` under the root).
    const base = isReservedPath(path + hint) ? crypto.randomUUID() : hint

    const suffix = container ? '/' : ''
    const isTaken = async (p: string) => (await getMeta(store, p)) !== undefined || (await getMeta(store, twinPath(p))) !== undefined
    // A taken name (or its document/container twin) gets a number before its extension, `photo (2).jpg`, as a
    // file manager names a second copy: POST never overwrites. Past NUMBERED_NAMES_TRIED, a random suffix.
    const wanted = readableName(base)
    const freeName = async () => {
      for (let n = 1; n <= NUMBERED_NAMES_TRIED; n++) {
        const p = `${path}${encodeSegment(numberedName(wanted, n))}${suffix}`
        if (!(await isTaken(p))) return p
      }
      let p: string
      do p = `${path}${base}-${crypto.randomUUID().slice(0, 8)}${suffix}`
      while (await isTaken(p))
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
      checkPreconditions(facts.preconditions, meta)
      await locks.admit({ ...facts.preconditions, path, members: [path] })
      if (parsedFor !== childPath) {
        content = await contentFor(body, childPath, cfg.baseUrl + childPath)
        parsedFor = childPath
      }
      // Who added it, as a PUT records it: the Activity page names the app, or the share link the file came through
      return writeResource(store, cfg.baseUrl, childPath, content, now(), authorOf(who))
    })
    return { path: childPath, result }
  }

  return { planPost, commitPost }
}

/** POST in one step, for a face that holds the body or streams it from elsewhere (resources.ts `post`), as `putInOneStep`. */
export const postInOneStep =
  (deps: ResourcesDeps, posts: ReturnType<typeof makePostMember>) =>
  async (who: Acting, path: string, contentType: string | null, body: OutgoingBody, facts: PostFacts): Promise<PostedMember> => {
    const plan = await posts.planPost(who, path, false)
    return posts.commitPost(who, path, plan, await receiveContent(deps, false, contentType, body), facts)
  }
