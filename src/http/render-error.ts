// Turns any thrown value into an answer: logged with its reason (the one `request.refused` event), then
// written in the format of the route group that answers: OAuth JSON for the OP and the UMA AS, the same
// JSON for the owner API, plain text (or problem details) for the RS, an HTML page for page routes.

import { badRequest, HttpError } from './errors.ts'
import { log, describeCause } from '../log.ts'
import { loggedPath } from './pod-paths.ts'

export type ErrorFormat<R extends Response | Promise<Response> = Response> = (err: HttpError) => R

export function renderError<R extends Response | Promise<Response>>(request: Request, err: unknown, format: ErrorFormat<R>): R {
  const path = loggedPath(new URL(request.url).pathname)
  const httpError = err instanceof HttpError ? err : undefined
  if (!httpError) {
    log.error('request.failed', { method: request.method, path, cause: describeCause(err) })
    return format(new HttpError(500, 'server_error', 'the pod could not complete this request; see the server log'))
  }
  logRefusal({ method: request.method, path }, httpError)
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

/**
 * Every refusal is explained in the log too, whatever carries it to the client (an error answer, a page that shows
 * it, a redirect to an app); the cause (never sent) only here. `clientId`: the app a redirected refusal goes to.
 */
export function logRefusal(where: { readonly method?: string; readonly path: string; readonly clientId?: string | undefined }, err: HttpError) {
  if (err.logged) return
  log[err.status >= 500 ? 'error' : 'info']('request.refused', {
    ...(where.method !== undefined ? { method: where.method } : {}),
    path: loggedPath(where.path),
    ...(where.clientId !== undefined ? { clientId: where.clientId } : {}),
    status: err.status,
    code: err.code,
    reason: err.description,
    ...(err.cause !== undefined ? { cause: describeCause(err.cause) } : {}),
  })
}
