// GET and HEAD of a container: its listing, whole (streamed when large) or one page, with ETags and 304s.

import type { Store } from '../store/open-store.ts'
import { readTriples } from '../store/resources.ts'
import { readMemberChunks, readMemberPage, type Member } from '../store/container-members.ts'
import { log, describeCause } from '../log.ts'
import { isNotModified } from './not-modified.ts'
import { representationEtag, type ResourceMeta } from '../store/resource-meta.ts'
import { listingWriter, type ListingWriter } from './listing-syntax.ts'
import { pageEtag, pageLinks, pageRequestOf, type PageRequest } from './container-pages.ts'
import { keepRepresentation, type RepresentationCache } from './representation-cache.ts'
import { httpDate } from './http-date.ts'

export interface ContainerReadFacts {
  readonly store: Store
  readonly baseUrl: string
  readonly path: string
  readonly meta: ResourceMeta
  /** The RDF syntax negotiated. */
  readonly mediaType: string
  /** The request URL as sent: its query may ask for a page. */
  readonly requestUrl: string
  readonly requestHeaders: Headers
  readonly head: boolean
  /** Resource headers already decided (Link, Allow, WAC-Allow …); the answer's are added to it. */
  readonly headers: Headers
  readonly cache: RepresentationCache
}

const utf8 = new TextEncoder()

export async function readContainer(f: ContainerReadFacts): Promise<Response> {
  const { meta, headers } = f
  const page = pageRequestOf(f.requestUrl, f.path)
  const listingEtag = representationEtag(meta, f.mediaType)
  const etag = page ? pageEtag(listingEtag, page, f.path) : listingEtag
  headers.append('etag', etag)
  headers.append('last-modified', httpDate(meta.modified))
  headers.append('content-type', `${f.mediaType}; charset=utf-8`)
  if (isNotModified(f.requestHeaders, etag, meta.modified)) return new Response(null, { status: 304, headers })
  if (page) return readPage(f, page)
  const key = `${f.path}\0${etag}`
  const cached = f.cache.get(key)
  if (cached) {
    headers.append('content-length', String(cached.byteLength))
    return new Response(f.head ? null : cached, { status: 200, headers })
  }
  // HEAD reads no member: without a cached body its length is unknown, and RFC 9110 §9.3.2 lets HEAD omit it.
  if (f.head) return new Response(null, { status: 200, headers })
  return readListing(f, key)
}

const writerFor = async (f: ContainerReadFacts): Promise<ListingWriter> =>
  listingWriter(f.mediaType, f.baseUrl, f.path, await readTriples(f.store, f.baseUrl, f.path), f.meta.prefixes)

/** One page: at most `limit` members, so it is written whole, with its length and its links. */
async function readPage(f: ContainerReadFacts, req: PageRequest): Promise<Response> {
  const page = await readMemberPage(f.store, f.path, req.cursor, req.limit)
  for (const link of pageLinks(f.baseUrl + f.path, f.path, req, page)) f.headers.append('link', link)
  const writer = await writerFor(f)
  const bytes = utf8.encode((await writer.head(page.items.length > 0)) + writer.members(page.items) + writer.tail)
  f.headers.append('content-length', String(bytes.byteLength))
  return new Response(f.head ? null : bytes, { status: 200, headers: f.headers })
}

/**
 * The whole listing. Up to two chunks of members are read first: a listing that ends there is written
 * whole (with Content-Length, and kept when small); a longer one is streamed a chunk at a time, read as
 * the client takes it (chunked transfer), so memory stays flat whatever the container holds.
 */
async function readListing(f: ContainerReadFacts, key: string): Promise<Response> {
  const chunks = readMemberChunks(f.store, f.path)
  let writer: ListingWriter
  let start: string
  let ended = false
  try {
    writer = await writerFor(f)
    const read: Member[][] = []
    while (read.length < 2) {
      const next = await chunks.next()
      if (next.done) {
        ended = true
        break
      }
      read.push(next.value)
    }
    start = (await writer.head(read.length > 0)) + read.map(c => writer.members(c)).join('')
  } catch (err) {
    await chunks.return()
    throw err
  }
  if (ended) {
    const bytes = utf8.encode(start + writer.tail)
    keepRepresentation(f.cache, key, bytes)
    f.headers.append('content-length', String(bytes.byteLength))
    return new Response(bytes, { status: 200, headers: f.headers })
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(utf8.encode(start))
    },
    async pull(controller) {
      try {
        const more = await chunks.next()
        if (more.done) {
          controller.enqueue(utf8.encode(writer.tail))
          controller.close()
        } else controller.enqueue(utf8.encode(writer.members(more.value)))
      } catch (err) {
        log.error('listing.read_failed', { path: f.path, cause: describeCause(err) })
        controller.error(err)
      }
    },
    // The client went away: release the snapshot and iterator now, not when the generator is collected.
    async cancel() {
      await chunks.return()
    },
  })
  return new Response(body, { status: 200, headers: f.headers })
}
