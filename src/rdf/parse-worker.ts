// Worker thread entry: parses PATCH bodies and large RDF documents so a large or hostile one never blocks the event loop.

import { HttpError } from '../http/errors.ts'
import { readPatchSyntax, type PatchSyntax } from './patch.ts'
import { parseRdfDocument, type ParseOptions } from './parse-rdf.ts'
import { toPlainQuad, type PlainQuad } from './plain-terms.ts'

declare const self: Worker

export type ParseRequest =
  | { readonly kind: 'patch'; readonly body: string; readonly type: PatchSyntax['type']; readonly baseIRI: string }
  | { readonly kind: 'document'; readonly body: string; readonly mediaType: string; readonly baseIRI: string; readonly options?: ParseOptions }
export type ParseJob = ParseRequest & { readonly id: number }

/** A parsed RDF document as plain data (structured clone keeps no classes). */
export interface PlainDocument {
  readonly triples: readonly PlainQuad[]
  readonly namedGraphs: readonly PlainQuad[]
  readonly prefixes: Record<string, string>
}

export type ParseJobResult =
  | { readonly id: number; readonly syntax: PatchSyntax }
  | { readonly id: number; readonly document: PlainDocument }
  | { readonly id: number; readonly error: Pick<HttpError, 'status' | 'code' | 'description' | 'headers'> }

async function run(job: ParseJob): Promise<ParseJobResult> {
  if (job.kind === 'patch') return { id: job.id, syntax: readPatchSyntax(job.body, job.type, job.baseIRI) }
  const doc = await parseRdfDocument(job.body, job.mediaType, job.baseIRI, job.options)
  return { id: job.id, document: { triples: doc.triples.map(toPlainQuad), namedGraphs: doc.namedGraphs.map(toPlainQuad), prefixes: doc.prefixes } }
}

self.onmessage = async (event: MessageEvent<ParseJob>) => {
  const { id, kind } = event.data
  let result: ParseJobResult
  try {
    result = await run(event.data)
  } catch (err) {
    result =
      err instanceof HttpError
        ? { id, error: { status: err.status, code: err.code, description: err.description, headers: err.headers } }
        : { id, error: { status: 400, code: kind === 'patch' ? 'invalid_syntax' : 'invalid_rdf', description: `the ${kind} could not be parsed`, headers: {} } }
  }
  self.postMessage(result)
}
