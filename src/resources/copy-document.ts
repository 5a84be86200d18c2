// A copy of one document or file at a new name (a WebDAV COPY's, member by member): Read on the source, then what a
// PUT at the new name needs, decided before anything is written. A file's bytes are not copied where the blob store
// can give them a second name (store/blob-store.ts `duplicate`: a hard link on the local disk), so copying a film takes
// no time and no room (in a bucket, the engine copies the object); elsewhere they are read and written again, as a
// document is from its Turtle.

import type { WriteResult } from '../store/resources.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import type { Acting, ResourcesDeps } from './acting.ts'
import { fileBody, type IncomingBody } from './new-content.ts'
import type { Preconditions } from './preconditions.ts'
import type { makePutResource } from './put-resource.ts'
import type { Readable } from './read-resource.ts'
import { receiveContent } from './receive-content.ts'

type Puts = ReturnType<typeof makePutResource>

export function makeCopyDocument(
  deps: ResourcesDeps,
  read: (who: Acting, path: string) => Promise<Readable>,
  represent: (path: string, readable: Readable) => Promise<Response>,
  puts: Puts,
) {
  const { store } = deps

  /** The source's bytes under a new blob id without copying them, or undefined where the store cannot. */
  async function duplicated(meta: ResourceMeta): Promise<IncomingBody | undefined> {
    if (meta.kind !== 'binary' || meta.blob === undefined || meta.sha256 === undefined) return undefined
    // A write replacing the source meanwhile must not remove its blob before the second name is made
    const release = store.blobs.hold()
    try {
      const blob = await store.blobs.duplicate(meta.blob, { size: meta.size, sha256: meta.sha256 })
      return blob && fileBody(meta.contentType, blob)
    } finally {
      release()
    }
  }

  return async function copyDocument(who: Acting, from: string, to: string, preconditions: Preconditions): Promise<WriteResult> {
    const readable = await read(who, from)
    const { meta } = readable
    if (meta.kind === 'container') throw new Error(`copyDocument copies a document or a file, not the folder ${from}`)
    const contentType = meta.kind === 'binary' ? meta.contentType : 'text/turtle'
    const plan = await puts.planPut(who, to, { preconditions, contentType })
    let body = await duplicated(meta)
    if (body === undefined) {
      // What a GET gives, what a PUT takes: RDF as Turtle (its stored form), a file as its bytes with its type
      const answer = await represent(from, readable)
      body = await receiveContent(deps, false, answer.headers.get('content-type'), answer.body ?? new Uint8Array(0))
    }
    return puts.commitPut(who, to, plan, body, preconditions)
  }
}
