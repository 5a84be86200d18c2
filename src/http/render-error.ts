// Turns any thrown value into the answer a client gets: OAuth JSON on OP/AS paths, plain text elsewhere.

import { HttpError, toOAuthResponse, toPlainResponse } from './errors.ts'
import { log, describeCause } from '../log.ts'

/** OAuth-style JSON errors on the OP/AS endpoints, plain text elsewhere (DESIGN §5). */
const isOAuthPath = (path: string) => /^\/(\.oidc|\.uma|\.well-known\/(openid|uma2))/.test(path)

export function renderError(request: Request, err: unknown): Response {
  const path = new URL(request.url).pathname
  const httpError = err instanceof HttpError ? err : undefined
  if (!httpError) {
    log.error('request.failed', { method: request.method, path, cause: describeCause(err) })
    const internal = new HttpError(500, 'server_error', 'the pod could not complete this request; see the server log')
    return isOAuthPath(path) ? toOAuthResponse(internal) : toPlainResponse(internal)
  }
  logRefusal(request, httpError)
  return isOAuthPath(path) ? toOAuthResponse(httpError) : toPlainResponse(httpError)
}

/** Every refusal is explained in the log too; the cause (never sent) only here. */
export function logRefusal(request: Request, err: HttpError) {
  log[err.status >= 500 ? 'error' : 'info']('request.refused', {
    method: request.method, path: new URL(request.url).pathname, status: err.status, code: err.code, reason: err.description,
    ...(err.cause !== undefined ? { cause: describeCause(err.cause) } : {}),
  })
}
