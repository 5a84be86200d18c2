// PROPFIND (RFC 4918 §9.1): the properties of a resource, and with Depth 1 of a folder's members too. Read on the
// resource (on the folder for its members, as its listing) is the operations layer's; Depth infinity is refused
// (§9.1, propfind-finite-depth), so no request walks a whole pod. A folder's members are written a chunk at a time
// as they are read: a folder of any size costs the pod one chunk.

import type { Element } from '@xmldom/xmldom'
import { HttpError } from '../http/errors.ts'
import type { ResourceMeta } from '../store/resource-meta.ts'
import { isContainerPath, twinPath } from '../store/paths.ts'
import type { PropertySet } from '../store/dead-properties.ts'
import { actingOf, depthOf, type DavContext, type DavRequest } from './dav-context.ts'
import { badXml, childElements, isDav, readXmlBody, rootOf } from './xml-body.ts'
import { clark, emptyElement, MULTISTATUS_CLOSE, MULTISTATUS_OPEN, propstat, responseFor, XML_TYPE } from './multistatus.ts'
import { liveProperties } from './live-properties.ts'

/** What the body asks for (§14.20): every property, their names only, or the ones named. */
type Wanted = { readonly kind: 'allprop' } | { readonly kind: 'propname' } | { readonly kind: 'prop'; readonly names: readonly string[] }

/** The Clark names of a `D:prop` element's children. */
export const namesIn = (prop: Element) => childElements(prop).map(e => clark(e.namespaceURI, e.localName!))

function wantedOf(root: Element | undefined): Wanted {
  if (root === undefined) return { kind: 'allprop' }
  const first = childElements(root)[0]
  if (first === undefined) throw badXml('DAV:propfind needs DAV:allprop, DAV:propname or DAV:prop')
  if (isDav(first, 'allprop')) return { kind: 'allprop' }
  if (isDav(first, 'propname')) return { kind: 'propname' }
  if (isDav(first, 'prop')) return { kind: 'prop', names: namesIn(first) }
  throw badXml('DAV:propfind needs DAV:allprop, DAV:propname or DAV:prop')
}

export async function handlePropfind(ctx: DavContext, r: DavRequest): Promise<Response> {
  // §10.2: a PROPFIND without Depth is Depth infinity, which is refused the same way
  if (depthOf(r.request.headers, 'infinity') === 'infinity') {
    throw new HttpError(403, 'propfind_finite_depth', 'PROPFIND with Depth infinity is not answered: ask with Depth 0 or 1, folder by folder')
  }
  const depth = depthOf(r.request.headers, 'infinity')
  const doc = await readXmlBody(r.request)
  const root = doc && rootOf(doc, 'propfind')
  const wanted = wantedOf(root)
  const { resources } = ctx.deps
  const who = actingOf(r)
  let path = r.target.path
  let readable
  try {
    readable = await resources.read(who, path)
  } catch (err) {
    // A client that names a folder without its trailing slash (Windows, some scripts) is answered for the folder
    if (!(err instanceof HttpError) || err.status !== 404 || isContainerPath(path)) throw err
    path = twinPath(path)
    readable = await resources.read(who, path).catch(() => {
      throw err
    })
  }
  const now = ctx.deps.now()
  const describe = (p: string, meta: ResourceMeta, dead: PropertySet) =>
    responseFor(p, propstats(liveProperties(p, meta, resources.locks.covering(p), now), dead, wanted))
  const first = describe(path, readable.meta, await ctx.props.get(path))
  if (depth === '0' || readable.meta.kind !== 'container') {
    return new Response(MULTISTATUS_OPEN + first + MULTISTATUS_CLOSE, { status: 207, headers: { 'content-type': XML_TYPE } })
  }
  const { members } = await resources.listMembers(who, path)
  async function* parts(): AsyncGenerator<string> {
    yield MULTISTATUS_OPEN + first
    for await (const chunk of members) {
      const dead = await ctx.props.getMany(chunk.map(m => m.path))
      yield chunk.map((m, i) => describe(m.path, m.meta, dead[i]!)).join('')
    }
    yield MULTISTATUS_CLOSE
  }
  return new Response(streamOf(parts()), { status: 207, headers: { 'content-type': XML_TYPE } })
}

/** The answer's propstats for one resource: found (200) and, for named properties it lacks, not found (404). */
function propstats(live: Map<string, string>, dead: PropertySet, wanted: Wanted): string {
  if (wanted.kind === 'propname') return propstat([...live.keys(), ...Object.keys(dead)].map(emptyElement), 200)
  if (wanted.kind === 'allprop') return propstat([...live.values(), ...Object.values(dead)], 200)
  const found: string[] = []
  const missing: string[] = []
  for (const name of wanted.names) {
    const xml = live.get(name) ?? dead[name]
    if (xml !== undefined) found.push(xml)
    else missing.push(emptyElement(name))
  }
  return (found.length > 0 ? propstat(found, 200) : '') + (missing.length > 0 ? propstat(missing, 404) : '')
}

/** A pull stream of the parts: the socket drains one before the next is read. */
function streamOf(parts: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream({
    async pull(controller) {
      const next = await parts.next()
      if (next.done) controller.close()
      else controller.enqueue(encoder.encode(next.value))
    },
    async cancel() {
      await parts.return(undefined)
    },
  })
}
