// The server-managed triples of a container: type, ldp:contains and each child's basic metadata.

import { DataFactory } from 'n3'
import type { Quad } from '@rdfjs/types'
import type { Store } from '../store/open-store.ts'
import { readChildren } from '../store/resources.ts'
import { DCTERMS, LDP, RDF, STAT, XSD, mediaTypeClass } from '../rdf/namespaces.ts'
import { isContainerPath } from '../store/paths.ts'
import { mediaTypeOf } from '../rdf/media-types.ts'

const { namedNode, literal, quad } = DataFactory
const A = namedNode(RDF('type'))

/** Solid Protocol §5.3: containment is derived from the membership index, never stored in the graph. */
export async function containerTriples(store: Store, baseUrl: string, path: string): Promise<Quad[]> {
  const self = namedNode(baseUrl + path)
  const out: Quad[] = [
    quad(self, A, namedNode(LDP('Container'))),
    quad(self, A, namedNode(LDP('BasicContainer'))),
    quad(self, A, namedNode(LDP('Resource'))),
  ]
  for (const child of await readChildren(store, path)) {
    const node = namedNode(baseUrl + child.path)
    out.push(quad(self, namedNode(LDP('contains')), node), quad(node, A, namedNode(LDP('Resource'))))
    if (isContainerPath(child.path)) out.push(quad(node, A, namedNode(LDP('Container'))), quad(node, A, namedNode(LDP('BasicContainer'))))
    else out.push(quad(node, A, namedNode(mediaTypeClass(mediaTypeOf(child.meta.contentType) ?? 'application/octet-stream'))))
    out.push(
      quad(node, namedNode(DCTERMS('modified')), literal(new Date(child.meta.modified).toISOString(), namedNode(XSD('dateTime')))),
      quad(node, namedNode(STAT('mtime')), literal(String(Math.floor(child.meta.modified / 1000)), namedNode(XSD('integer')))),
    )
    if (!isContainerPath(child.path)) out.push(quad(node, namedNode(STAT('size')), literal(String(child.meta.size), namedNode(XSD('integer')))))
  }
  return out
}

/** Server-managed predicates a client may not write into a container's own graph (Solid §5.3: 409). */
export const isServerManaged = (q: Quad, containerUrl: string) =>
  q.predicate.value === LDP('contains') && q.subject.value === containerUrl
