// Worker thread entry: parses PATCH bodies so a large or hostile one never blocks the event loop.

import { HttpError } from '../http/errors.ts'
import { readPatchSyntax, type PatchSyntax } from './patch.ts'

declare const self: Worker

export interface PatchJob { readonly id: number; readonly body: string; readonly type: PatchSyntax['type']; readonly baseIRI: string }
export type PatchJobResult =
  | { readonly id: number; readonly syntax: PatchSyntax }
  | { readonly id: number; readonly error: { status: number; code: string; description: string; headers: Record<string, string | string[]> } }

self.onmessage = (event: MessageEvent<PatchJob>) => {
  const { id, body, type, baseIRI } = event.data
  let result: PatchJobResult
  try {
    result = { id, syntax: readPatchSyntax(body, type, baseIRI) }
  } catch (err) {
    result = err instanceof HttpError
      ? { id, error: { status: err.status, code: err.code, description: err.description, headers: err.headers } }
      : { id, error: { status: 400, code: 'invalid_syntax', description: 'the patch could not be parsed', headers: {} } }
  }
  self.postMessage(result)
}
