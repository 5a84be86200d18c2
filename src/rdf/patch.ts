// What a PATCH body is once parsed: the access modes it needs and how it changes a document
// (Solid Protocol §5.3, WAC §5), whichever patch language it is written in.

import { HttpError } from '../http/errors.ts'
import { mediaTypeOf } from './media-types.ts'
import type { PatchPlan } from './patch-plan.ts'
import { parseN3Patch } from './n3-patch.ts'
import { parseSparqlUpdate } from './sparql-update.ts'

export const N3_PATCH = 'text/n3'
export const SPARQL_UPDATE = 'application/sparql-update'

/** The `Accept-Patch` value of RDF documents; Solid Protocol §5.3.1 requires text/n3 in it. */
export const ACCEPT_PATCH = `${N3_PATCH}, ${SPARQL_UPDATE}`

/**
 * Parse a PATCH body of the given Content-Type, relative IRIs resolved against `baseIRI` (the
 * target's URL). Throws 415 `unsupported_media_type` for another type, 400 `invalid_syntax`
 * for a body that does not parse and 422 `invalid_patch` for a patch that breaks a rule.
 */
export function parsePatch(body: string, contentType: string, baseIRI: string): PatchPlan {
  const type = mediaTypeOf(contentType)
  if (type === N3_PATCH) return parseN3Patch(body, baseIRI)
  if (type === SPARQL_UPDATE) return parseSparqlUpdate(body, baseIRI)
  // RFC 5789 §2.2: a 415 to PATCH names the patch types the resource takes.
  throw new HttpError(415, 'unsupported_media_type', `PATCH takes ${N3_PATCH} or ${SPARQL_UPDATE}, got ${type ?? 'no media type'}`,
    { headers: { 'Accept-Patch': ACCEPT_PATCH } })
}
