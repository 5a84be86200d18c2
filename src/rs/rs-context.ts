// What every resource-server handler receives.

import type { Deps } from '../deps.ts'
import type { Principal } from '../auth/principal.ts'
import type { AccessControl } from '../policy/access-control.ts'
import type { Target } from '../store/target.ts'
import type { UploadSessions } from './upload-sessions.ts'
import type { Acting } from '../resources/acting.ts'

export interface RsContext {
  readonly deps: Deps
  readonly access: AccessControl
  /** Which request holds each resumable upload now (rs/upload-sessions.ts). */
  readonly uploads: UploadSessions
}

export interface RsRequest {
  readonly request: Request
  readonly target: Target
  readonly principal: Principal
  readonly origin: string | undefined
}

/** Who a request acts for, as the operations layer takes it. */
export const actingOf = (r: Pick<RsRequest, 'principal' | 'origin'>): Acting => ({ principal: r.principal, origin: r.origin })
