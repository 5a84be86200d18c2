// A folder's members with their metadata, for a face that lists them itself (WebDAV's PROPFIND of Depth 1): Read
// on the folder decided first, as for a GET of its listing (read-resource.ts), then the membership index a chunk
// at a time, so a folder of any size is never held whole.

import { HttpError } from '../http/errors.ts'
import { readMemberChunks, type Member } from '../store/container-members.ts'
import { isAcl } from '../store/acl-names.ts'
import { makeReadResource, type Readable } from './read-resource.ts'
import type { Acting, ResourcesDeps } from './acting.ts'

export interface Listing {
  /** The folder itself, as `read` gives it. */
  readonly folder: Readable
  /** Its members in path order, a chunk at a time (ACLs are never members); stopping early releases the snapshot. */
  readonly members: AsyncGenerator<Member[], void, undefined>
}

export function makeMemberChunks(deps: ResourcesDeps) {
  const read = makeReadResource(deps)
  return async function listMembers(who: Acting, path: string): Promise<Listing> {
    const folder = await read(who, path)
    if (folder.meta.kind !== 'container') throw new HttpError(400, 'not_a_container', `${path} is not a folder: it has no members`)
    return { folder, members: withoutAcls(readMemberChunks(deps.store, path)) }
  }
}

async function* withoutAcls(chunks: AsyncGenerator<Member[], void, undefined>): AsyncGenerator<Member[], void, undefined> {
  for await (const chunk of chunks) yield chunk.filter(m => !isAcl(m.path))
}
