// Who a signed-in visitor is: the principal their visitor session names, which the visitor's pages (visit/) act as
// in the operations layer, so WAC, grants and every check apply to them exactly as to their apps. The cookie names
// nobody at the resource server: only the pages act as the visitor (a script of the pod's origin has no use for it).

import type { VisitorSession } from '../account/visitor-sessions.ts'
import type { Principal } from './principal.ts'

/** The visitor's WebID, as their own provider (the issuer) confirmed it at sign-in; no keys. */
export const visitorPrincipal = (session: Pick<VisitorSession, 'webid' | 'issuer'>): Principal => ({
  webid: session.webid,
  issuer: session.issuer,
  keys: [],
  scheme: 'visitor',
})
