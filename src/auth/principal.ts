// Who is asking: the result of authentication, the input of every access decision.

import type { ClientId, WebId } from '../account/ids.ts'
import type { UmaPermission } from '../uma/permission.ts'
import type { SignedBody } from './httpsig/content-digest.ts'
import type { LinkScope } from '../account/share-links.ts'

/**
 * `session`: the owner's own dashboard, by login cookie and CSRF token (auth/owner-cookie.ts); `visitor`:
 * someone the owner shared with, signed in with their own pod, on the visitor's pages (auth/visitor-cookie.ts);
 * `Basic`: a mounted drive (WebDAV) with one of the owner's client credentials as user name and password (auth/basic-credential.ts).
 */
export type AuthScheme = 'anonymous' | 'DPoP' | 'Bearer' | 'HttpSig' | 'session' | 'visitor' | 'Basic' | 'link'

export interface Principal {
  readonly webid?: WebId
  readonly clientId?: ClientId
  readonly issuer?: string
  /** Key URLs (or did:key identifiers) the requester proved to hold (HttpSig). */
  readonly keys: readonly string[]
  readonly scheme: AuthScheme
  /**
   * Set only for a UMA access token: the resources (exact URLs) and modes it was issued for. Such a
   * principal gets nothing beyond them, whatever else its WebID may do (UMA Grant §3.3.5).
   */
  readonly permissions?: readonly UmaPermission[]
  /**
   * The app session a token of this pod's own OP names (`sid`): what lasts longer than one request
   * (a notification channel) checks it is still live, as authentication does on every request.
   */
  readonly session?: string
  /** Set only for HttpSig: what the signature says of the body (RFC 9530), checked where the body is read. */
  readonly signedBody?: SignedBody
  /**
   * Set only for someone holding a share link (src/links/): an agent of its own kind, with no WebID, whom the
   * decider allows exactly what the link does on its path (policy/link-access.ts) and nothing else.
   */
  readonly link?: LinkScope
}

export const ANONYMOUS: Principal = Object.freeze({ keys: Object.freeze([]) as readonly string[], scheme: 'anonymous' })

export const isAuthenticated = (p: Pick<Principal, 'webid' | 'keys'>) => p.webid !== undefined || p.keys.length > 0
