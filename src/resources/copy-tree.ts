// A copy of a document, a file or a folder with everything in it (the dashboard's Copy to…, a WebDAV COPY): the folder
// made anew by a PUT, each member copied by the layer's copy for the same principal, a member that cannot be copied (not
// readable, refused by the pod's essentials) left out and answered while the others are copied (RFC 4918 §9.8.8).
// ACLs never go along: access is not content, and a copy is open to whoever may open its new folder.

import { HttpError } from '../http/errors.ts'
import { isContainerPath } from '../store/paths.ts'
import type { WriteResult } from '../store/resources.ts'
import type { Acting } from './acting.ts'
import type { Listing } from './list-members.ts'
import type { Preconditions } from './preconditions.ts'
import type { Readable } from './read-resource.ts'
import type { OutgoingBody } from './receive-content.ts'

/** A member that could not be copied (its stored path in the source), with the refusal's status, code and words. */
export interface CopyFailure {
  readonly path: string
  readonly status: number
  readonly code: string
  readonly description: string
}

export interface CopyTreeOptions {
  /** A folder's members too (a WebDAV COPY of Depth infinity, the dashboard's); false: the folder alone (Depth 0). */
  readonly deep: boolean
  /** Applied to every write: `ifNoneMatch: '*'` never replaces anything, the lock tokens a WebDAV client submitted. */
  readonly preconditions: Preconditions
}

interface TreeOps {
  read(who: Acting, path: string): Promise<Readable>
  put(who: Acting, path: string, contentType: string | null, body: OutgoingBody, preconditions?: Preconditions): Promise<WriteResult>
  copy(who: Acting, from: string, to: string, preconditions: Preconditions): Promise<WriteResult>
  listMembers(who: Acting, path: string): Promise<Listing>
}

export function makeCopyTree(ops: TreeOps) {
  /** `from` at `to`; a member's refusal is added to `failed` (a folder's members are then left alone), the top one's thrown. */
  async function copyInto(who: Acting, from: string, to: string, options: CopyTreeOptions, failed: CopyFailure[]): Promise<void> {
    // A document or a file: the layer's copy (Read on it, Write at the new name; a file's bytes not copied where they need not be)
    if (!isContainerPath(from)) {
      await ops.copy(who, from, to, options.preconditions)
      return
    }
    await ops.read(who, from)
    await ops.put(who, to, 'text/turtle', '', options.preconditions)
    if (!options.deep) return
    const { members } = await ops.listMembers(who, from)
    const paths: string[] = []
    // The member list is taken whole first: writing into the pod while its snapshot is open would copy nothing new anyway
    for await (const chunk of members) for (const m of chunk) paths.push(m.path)
    for (const p of paths) {
      try {
        await copyInto(who, p, to + p.slice(from.length), options, failed)
      } catch (err) {
        if (!(err instanceof HttpError)) throw err
        failed.push({ path: p, status: err.status, code: err.code, description: err.description })
      }
    }
  }

  return async function copyTree(who: Acting, from: string, to: string, options: CopyTreeOptions): Promise<CopyFailure[]> {
    // Copied into itself, a folder would copy its own copy again without end
    if (isContainerPath(from) && to.startsWith(from))
      throw new HttpError(400, 'copy_into_itself', `a folder cannot be copied into itself or a folder inside it (${to} is inside ${from})`)
    const failed: CopyFailure[] = []
    await copyInto(who, from, to, options, failed)
    return failed
  }
}
