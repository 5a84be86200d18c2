// What a PATCH body is once parsed: the access modes it needs and how it changes a document
// (Solid Protocol §5.3, WAC §5), whichever patch language it is written in.

import { HttpError } from '../http/errors.ts'
import { mediaTypeOf } from './media-types.ts'
import { planN3Patch, readN3Patch } from './n3-patch.ts'
import { planSparqlUpdate, readSparqlUpdate, type SparqlRequest } from './sparql-update.ts'
import type { PlainQuad } from './plain-terms.ts'
import type { PatchPlan } from './patch-plan.ts'

export const N3_PATCH = 'text/n3'
export const SPARQL_UPDATE = 'application/sparql-update'

/** The `Accept-Patch` value of RDF documents; Solid Protocol §5.3.1 requires text/n3 in it. */
export const ACCEPT_PATCH = `${N3_PATCH}, ${SPARQL_UPDATE}`

/** A parsed PATCH body as plain data: what `readPatchSyntax` gives and `planPatch` takes, across threads too. */
export type PatchSyntax =
  | { readonly type: typeof N3_PATCH; readonly quads: readonly PlainQuad[] }
  | { readonly type: typeof SPARQL_UPDATE; readonly request: SparqlRequest }

/**
 * Parse a PATCH body of the given Content-Type, relative IRIs resolved against `baseIRI` (the
 * target's URL). Throws 415 `unsupported_media_type` for another type, 400 `invalid_syntax`
 * for a body that does not parse or nests too deep, and 422 `invalid_patch` for a patch that breaks a rule.
 */
export function parsePatch(body: string, contentType: string, baseIRI: string): PatchPlan {
  return planPatch(readPatchSyntax(body, checkPatchType(contentType), baseIRI))
}

/** The patch language of a Content-Type, or 415 naming the ones the pod takes. */
export function checkPatchType(contentType: string | undefined): PatchSyntax['type'] {
  const type = mediaTypeOf(contentType ?? null)
  if (type === N3_PATCH || type === SPARQL_UPDATE) return type
  // RFC 5789 §2.2: a 415 to PATCH names the patch types the resource takes.
  throw new HttpError(415, 'unsupported_media_type', `PATCH takes ${N3_PATCH} or ${SPARQL_UPDATE}, got ${type ?? 'no media type'}`, {
    headers: { 'Accept-Patch': ACCEPT_PATCH },
  })
}

/** The parse itself: the costly part (up to a second for a 1 MiB SPARQL Update), run off the event loop by the RS. */
export function readPatchSyntax(body: string, type: PatchSyntax['type'], baseIRI: string): PatchSyntax {
  checkNesting(body)
  return type === N3_PATCH ? { type, quads: readN3Patch(body, baseIRI) } : { type, request: readSparqlUpdate(body, baseIRI) }
}

/** The checks and the plan from a parsed body: linear in its size. */
export function planPatch(syntax: PatchSyntax): PatchPlan {
  return syntax.type === N3_PATCH ? planN3Patch(syntax.quads) : planSparqlUpdate(syntax.request)
}

/**
 * Deepest nesting of `{`, `[` and `(` a patch may use. sparqljs's parser is superlinear in
 * nesting (5,000 nested groups took seconds), and no real patch nests more than a few levels.
 */
export const MAX_PATCH_NESTING = 64

/**
 * Refuses deep nesting before any parser sees the body. Brackets inside IRIs, string literals
 * and comments do not count; the scan is linear and never fails on valid syntax of sane depth.
 */
export function checkNesting(body: string): void {
  let depth = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === '{' || c === '[' || c === '(') {
      if (++depth > MAX_PATCH_NESTING) {
        throw new HttpError(400, 'invalid_syntax', `the patch nests {, [ or ( more than ${MAX_PATCH_NESTING} levels deep; flatten it`)
      }
    } else if (c === '}' || c === ']' || c === ')') depth = Math.max(0, depth - 1)
    else if (c === '<') i = skipIri(body, i)
    else if (c === '"' || c === "'") i = skipString(body, i, c)
    else if (c === '#') {
      const end = body.indexOf('\n', i)
      i = end < 0 ? body.length : end
    }
  }
}

// `<` opens an IRI only when an IRI can follow (no space, quote or bracket before `>`); otherwise it is a comparison.
const IRI_REF = /<[^\s<>"{}|^`\\]*>/y

function skipIri(body: string, start: number): number {
  IRI_REF.lastIndex = start
  return IRI_REF.test(body) ? IRI_REF.lastIndex - 1 : start
}

function skipString(body: string, start: number, quote: string): number {
  const long = body.startsWith(quote.repeat(3), start)
  const close = long ? quote.repeat(3) : quote
  for (let i = start + close.length; i < body.length; i++) {
    if (body[i] === '\\') {
      i++
      continue
    }
    if (!long && body[i] === '\n') return i
    if (body.startsWith(close, i)) return i + close.length - 1
  }
  return body.length
}
