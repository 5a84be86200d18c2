// Who the owner's pages act as in the operations layer: the owner's dashboard session, from the pod's own origin
// (WAC's acl:origin, as the browser's own requests from these pages carry it).

import { ownerSessionPrincipal } from '../auth/owner-cookie.ts'
import type { Acting } from '../resources/resources.ts'

export const ownerActing = (baseUrl: string): Acting => ({ principal: ownerSessionPrincipal(baseUrl), origin: new URL(baseUrl).origin })
