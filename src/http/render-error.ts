// Turns any thrown value into an answer: logged with its reason, then written in the format of the
// role that answers (each role plugin passes its own: OAuth JSON for the OP, plain text for the RS).

import { badRequest, HttpError } from './errors.ts'
import { log, describeCause } from '../log.ts'

export type ErrorFormat = (err: HttpError) => Response

export function renderError(request: Request, err: unknown, format: ErrorFormat): Response {
  const path = new URL(request.url).pathname
  const httpError = err instanceof HttpError ? err : undefined
  if (!httpError) {
    log.error('request.failed', { method: request.method, path, cause: describeCause(err) })
    return format(new HttpError(500, 'server_error', 'the pod could not complete this request; see the server log'))
  }
  logRefusal(request, httpError)
  return format(httpError)
}

/** Elysia's own refusals (a body or query its schema rejects) as the pod's error; others unchanged. */
export function fromFramework(code: string | number, error: unknown): unknown {
  if (code === 'VALIDATION' || code === 'PARSE') {
    return badRequest(`the request is malformed: ${code === 'PARSE' ? 'body could not be parsed' : 'fields are missing or invalid'}`)
  }
  if (code === 'NOT_FOUND') return new HttpError(404, 'not_found', 'nothing here')
  return error
}

/** Every refusal is explained in the log too; the cause (never sent) only here. */
export function logRefusal(request: Request, err: HttpError) {
  log[err.status >= 500 ? 'error' : 'info']('request.refused', {
    method: request.method, path: new URL(request.url).pathname, status: err.status, code: err.code, reason: err.description,
    ...(err.cause !== undefined ? { cause: describeCause(err.cause) } : {}),
  })
}
