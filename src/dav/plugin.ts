// The WebDAV role (RFC 4918 class 1 and 2): PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK and UNLOCK on the pod's
// own resource URLs, so a phone, a desktop or rclone mounts the pod. GET, PUT, DELETE and OPTIONS stay the resource
// server's (which announces DAV and honours the locks); every operation here goes through the operations layer for
// the request's principal: HTTP Basic with a client credential (auth/basic-credential.ts), or any scheme the RS takes.

import { Elysia } from 'elysia'
import type { Deps } from '../deps.ts'
import { HttpError, toResourceResponse } from '../http/errors.ts'
import { fromFramework, renderError } from '../http/render-error.ts'
import { DAV_METHODS } from '../http/dav-methods.ts'
import { isReservedPath } from '../http/pod-paths.ts'
import { basicChallenge } from '../auth/challenges.ts'
import { resolveTarget } from '../store/target.ts'
import { reservedPathError } from '../resources/resource-names.ts'
import { makeDeadProperties } from '../store/dead-properties.ts'
import type { DavContext, DavRequest } from './dav-context.ts'
import { errorBody, XML_TYPE } from './multistatus.ts'
import { handlePropfind } from './propfind.ts'
import { handleProppatch } from './proppatch.ts'
import { handleMkcol } from './mkcol.ts'
import { handleCopyMove } from './copy-move.ts'
import { handleLock, handleUnlock } from './lock.ts'

/** RFC 4918 §16: refusals that name a precondition in an XML body. */
const CONDITIONS: Partial<Record<string, string>> = {
  propfind_finite_depth: 'propfind-finite-depth',
  locked: 'lock-token-submitted',
  lock_conflict: 'no-conflicting-lock',
  lock_token_mismatch: 'lock-token-matches-request-uri',
}

/** The dav role: its Elysia plugin (the WebDAV methods on `/*`), and its handler for the app to call directly. */
export function makeDav(deps: Deps) {
  const props = makeDeadProperties(deps.store)
  const ctx: DavContext = { deps, props }

  async function handle(request: Request): Promise<Response> {
    try {
      const target = resolveTarget(deps.cfg.baseUrl, request.url)
      // the pod's own endpoints are never pod resources (http/pod-paths.ts)
      if (isReservedPath(target.path)) throw reservedPathError(target.path)
      const principal = await deps.authenticate(request)
      return await dispatch({ request, target, principal, origin: request.headers.get('origin') ?? undefined })
    } catch (err) {
      return renderError(request, err, format(request))
    }
  }

  function dispatch(r: DavRequest): Promise<Response> {
    const method = r.request.method.toUpperCase()
    switch (method) {
      case 'PROPFIND':
        return handlePropfind(ctx, r)
      case 'PROPPATCH':
        return handleProppatch(ctx, r)
      case 'MKCOL':
        return handleMkcol(ctx, r)
      case 'COPY':
      case 'MOVE':
        return handleCopyMove(ctx, r, method)
      case 'LOCK':
        return handleLock(ctx, r)
      case 'UNLOCK':
        return handleUnlock(ctx, r)
      default:
        throw new HttpError(405, 'method_not_allowed', `${method} is not a WebDAV method`)
    }
  }

  const route = ({ request }: { request: Request }) => handle(request)
  const [propfind, proppatch, mkcol, copy, move, lock, unlock] = DAV_METHODS
  const plugin = new Elysia({ name: 'dav' })
    .onError(({ code, error, request }) => renderError(request, fromFramework(code, error), format(request)))
    .route(propfind, '/*', route, { parse: 'none' })
    .route(proppatch, '/*', route, { parse: 'none' })
    .route(mkcol, '/*', route, { parse: 'none' })
    .route(copy, '/*', route, { parse: 'none' })
    .route(move, '/*', route, { parse: 'none' })
    .route(lock, '/*', route, { parse: 'none' })
    .route(unlock, '/*', route, { parse: 'none' })
  return { plugin, handle }
}

/**
 * The resource server's refusals (plain text, or problem details to a client that asks), a WebDAV precondition as
 * its XML error body; every 401 offers Basic too, the scheme a file manager can answer.
 */
const format =
  (request: Request) =>
  (err: HttpError): Response => {
    const condition = CONDITIONS[err.code]
    const response = condition === undefined ? toResourceResponse(request)(err) : xmlError(err, condition)
    if (response.status === 401 && !(response.headers.get('www-authenticate') ?? '').includes('Basic'))
      response.headers.append('www-authenticate', basicChallenge())
    return response
  }

function xmlError(err: HttpError, condition: string): Response {
  const headers = new Headers({ 'content-type': XML_TYPE })
  for (const [name, value] of Object.entries(err.headers)) for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v)
  return new Response(errorBody(condition, `${err.code}: ${err.description}`), { status: err.status, headers })
}
