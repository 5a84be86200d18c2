// MKCOL (RFC 4918 §9.3): a new, empty folder, through the operations layer's PUT of a container (Append or Write
// on its folder, decided first, then the locks it submits). A folder is named with a trailing slash on this pod; a
// client that leaves it off (Windows) still makes the folder.

import { HttpError } from '../http/errors.ts'
import { getMeta } from '../store/resources.ts'
import { twinPath } from '../store/paths.ts'
import { submittedLocksOf } from '../resources/if-header.ts'
import type { Preconditions } from '../resources/preconditions.ts'
import { actingOf, type DavContext, type DavRequest } from './dav-context.ts'

const EMPTY_FOLDER = { rdf: { bytes: new Uint8Array(0), mediaType: 'text/turtle', contentType: 'text/turtle' } } as const

export async function handleMkcol(ctx: DavContext, r: DavRequest): Promise<Response> {
  const { resources, store } = ctx.deps
  const path = r.target.path.endsWith('/') ? r.target.path : `${r.target.path}/`
  const who = actingOf(r)
  const preconditions: Preconditions = { ifMatch: null, ifNoneMatch: '*', ...submittedLocksOf(r.request.headers) }
  // §9.3.1: MKCOL where something is already mapped is 405 (asked once access is decided: the layer refused before)
  const existsNow = async (err: unknown) =>
    err instanceof HttpError &&
    (err.code === 'precondition_failed' || err.code === 'name_conflict') &&
    ((await getMeta(store, path)) !== undefined || (await getMeta(store, twinPath(path))) !== undefined)
  let plan
  try {
    plan = await resources.planPut(who, path, { preconditions, contentType: 'text/turtle' })
  } catch (err) {
    if (await existsNow(err)) throw exists(path)
    throw err
  }
  // §9.3.1: 415 for a body the server does not understand; this pod understands none
  if (await hasBody(r.request)) throw new HttpError(415, 'unsupported_media_type', 'MKCOL takes no body: it makes an empty folder')
  // §9.3.1: the folder above must exist (a PUT would make it; MKCOL must not)
  if (plan.authorized.length > 0)
    throw new HttpError(409, 'missing_parent', `${plan.authorized[plan.authorized.length - 1]} does not exist: make the folders above first`)
  try {
    await resources.commitPut(who, path, plan, EMPTY_FOLDER, preconditions)
  } catch (err) {
    if (await existsNow(err)) throw exists(path)
    throw err
  }
  return new Response(null, { status: 201, headers: { location: ctx.deps.cfg.baseUrl + path } })
}

const exists = (path: string) =>
  new HttpError(405, 'method_not_allowed', `${path} exists already (or a file of its name does)`, {
    headers: { allow: 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, COPY, MOVE, LOCK, UNLOCK' },
  })

async function hasBody(request: Request): Promise<boolean> {
  if (request.body === null) return false
  const reader = request.body.getReader()
  const first = await reader.read()
  await reader.cancel()
  return !first.done && first.value.byteLength > 0
}
