// Receives a PUT's or POST's body from the request, for the operations layer: RDF read whole, a file streamed to the blob store.

import { readRequestBody } from '../auth/request-body.ts'
import { fileBody, type IncomingBody } from '../resources/new-content.ts'
import { fileTypeOf } from '../resources/receive-content.ts'
import { storeBinaryBody } from './binary-body.ts'
import type { RsContext, RsRequest } from './rs-context.ts'

/**
 * Receives the body of a PUT or POST. Whether it is a file is decided from the headers alone, before a byte is
 * read: a non-RDF Content-Type written to a document (not a container, not an ACL). RDF keeps its own limit.
 */
export async function receiveBody(ctx: RsContext, r: Pick<RsRequest, 'request' | 'principal'>, container: boolean): Promise<IncomingBody> {
  const { cfg } = ctx.deps
  const contentType = fileTypeOf(r.request.headers.get('content-type'), container)
  if (contentType !== undefined) return fileBody(contentType, await storeBinaryBody(ctx, r))
  return { rdf: await readRequestBody(r, Math.min(cfg.maxRdfBytes, cfg.maxBodyBytes ?? Infinity)) }
}
