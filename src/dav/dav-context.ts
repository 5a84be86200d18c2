// What every handler of the dav role receives, and the request facts it reads.

import type { Deps } from '../deps.ts'
import type { Principal } from '../auth/principal.ts'
import type { Target } from '../store/target.ts'
import type { Acting } from '../resources/acting.ts'
import { HttpError } from '../http/errors.ts'
import type { DeadProperties } from '../store/dead-properties.ts'

export interface DavContext {
  readonly deps: Deps
  readonly props: DeadProperties
}

export interface DavRequest {
  readonly request: Request
  readonly target: Target
  readonly principal: Principal
  readonly origin: string | undefined
}

export const actingOf = (r: Pick<DavRequest, 'principal' | 'origin'>): Acting => ({ principal: r.principal, origin: r.origin })

export type Depth = '0' | '1' | 'infinity'

/** RFC 4918 §10.2: `Depth: 0 | 1 | infinity`; `fallback` when the header is absent (each method says which). */
export function depthOf(headers: Headers, fallback: Depth): Depth {
  const value = headers.get('depth')?.trim().toLowerCase()
  if (value === undefined) return fallback
  if (value === '0' || value === '1' || value === 'infinity') return value
  throw new HttpError(400, 'invalid_request', 'the Depth header must be 0, 1 or infinity (RFC 4918 §10.2)')
}
