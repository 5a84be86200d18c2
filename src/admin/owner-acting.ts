// Who the owner's pages act as in the operations layer: the owner's dashboard session, from the pod's own origin
// (WAC's acl:origin, as the browser's own requests from these pages carry it).

import { ownerSessionPrincipal } from '../auth/owner-cookie.ts'
import { HttpError } from '../http/errors.ts'
import type { Acting } from '../resources/resources.ts'

export const ownerActing = (baseUrl: string): Acting => ({ principal: ownerSessionPrincipal(baseUrl), origin: new URL(baseUrl).origin })

/** The layer's 404 as `value`, for a page asking about what may not be there; every other refusal stands. */
export const whenMissing =
  <T>(value: T) =>
  (err: unknown): T => {
    if (err instanceof HttpError && err.status === 404) return value
    throw err
  }
