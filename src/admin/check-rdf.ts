// POST /.admin/api/check-rdf: the editor's "check" before saving — the same parser the resource
// server uses, so the error and its line are what a PUT would answer, and nothing is written.

import { HttpError } from '../http/errors.ts'
import { parseRdf } from '../rdf/parse-rdf.ts'

const POSITION = /at line (\d+), column (\d+)/

export async function checkRdf(body: unknown) {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  if (typeof b.text !== 'string' || typeof b.contentType !== 'string' || typeof b.base !== 'string') {
    throw new HttpError(400, 'invalid_request', 'send JSON {"text": the document, "contentType": its media type, "base": its URL}')
  }
  try {
    const quads = await parseRdf(b.text, b.contentType, b.base)
    return { ok: true as const, triples: quads.length }
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 400) throw err
    const at = POSITION.exec(err.description)
    return { ok: false as const, code: err.code, message: err.description, ...(at ? { line: Number(at[1]), column: Number(at[2]) } : {}) }
  }
}
