// The storage description resource (Solid Protocol §4.1), linked from every resource.

import { DataFactory } from '../lib/n3.ts'
import { PIM, RDF, SOLID } from '../rdf/namespaces.ts'
import { preferredRdfType } from '../rdf/media-types.ts'
import { serializeRdf } from '../rdf/serialize-rdf.ts'
import { HttpError } from '../http/errors.ts'
import { ownerWebIdOf } from '../config.ts'
import { RS_PATHS } from '../http/pod-paths.ts'
import { allSubscriptionServiceQuads } from '../channels/subscription-services.ts'

const { namedNode, quad } = DataFactory

export async function describeStorage(baseUrl: string, accept: string | null): Promise<Response> {
  const mediaType = preferredRdfType(accept)
  if (!mediaType) throw new HttpError(406, 'not_acceptable', 'accept text/turtle, application/ld+json or application/n-triples')
  const self = namedNode(baseUrl + RS_PATHS.storageDescription)
  const root = namedNode(`${baseUrl}/`)
  const body = await serializeRdf(
    [
      quad(self, namedNode(RDF('type')), namedNode(SOLID('StorageDescription'))),
      quad(root, namedNode(RDF('type')), namedNode(PIM('Storage'))),
      quad(root, namedNode(SOLID('owner')), namedNode(ownerWebIdOf(baseUrl))),
      ...allSubscriptionServiceQuads(baseUrl, self.value),
    ],
    mediaType,
    self.value,
  )
  return new Response(body, { headers: { 'content-type': `${mediaType}; charset=utf-8`, vary: 'Accept, Origin' } })
}
