// A mounted drive (HTTP Basic with a client credential: Finder, Explorer, a phone's Files app, rclone, davfs2) speaks
// WebDAV, whose PUT differs from Solid's in two places: a body may come without a Content-Type (RFC 9110 §8.3 lets
// the recipient guess it), and a PUT never makes the folders above (RFC 4918 §9.7.1: 409). Every other client keeps
// Solid's rules (400 without a type, missing containers created).

import { HttpError } from '../http/errors.ts'
import type { Principal } from '../auth/principal.ts'
import type { PutPlan } from '../resources/put-resource.ts'

export const isMountedDrive = (principal: Pick<Principal, 'scheme'>) => principal.scheme === 'Basic'

/** The request with a Content-Type guessed from the name (Bun's table of extensions) when a mounted drive sent none. */
export function withTypeFromName(request: Request, principal: Pick<Principal, 'scheme'>, path: string): Request {
  if (!isMountedDrive(principal) || request.headers.has('content-type') || path.endsWith('/')) return request
  const headers = new Headers(request.headers)
  let name = path.slice(path.lastIndexOf('/') + 1)
  try {
    name = decodeURIComponent(name)
  } catch {
    /* a name that does not decode keeps its percent signs; only its extension matters */
  }
  headers.set('content-type', Bun.file(name).type)
  // The body handed on as the stream it is: `new Request(request, …)` would read it whole into memory first (Bun
  // 1.x), a 1 GiB file from cadaver or davfs2 (which send no Content-Type) held in the pod's RSS
  return new Request(request.url, { method: request.method, headers, body: request.body, signal: request.signal, duplex: 'half' } as RequestInit & {
    duplex: 'half'
  })
}

/** RFC 4918 §9.7.1: a mounted drive's PUT into a folder that does not exist is refused, not made. */
export function checkParentExists(principal: Pick<Principal, 'scheme'>, plan: PutPlan): void {
  if (!isMountedDrive(principal) || plan.authorized.length === 0) return
  throw new HttpError(409, 'missing_parent', `${plan.authorized[plan.authorized.length - 1]} does not exist: make the folder first (MKCOL)`)
}
