// Who is asking: the result of authentication, the input of every access decision.

export type WebId = string & { readonly brand: 'WebId' }
export type ClientId = string & { readonly brand: 'ClientId' }

/** `session`: the owner's own dashboard, by login cookie and CSRF token (auth/owner-cookie.ts). */
export type AuthScheme = 'anonymous' | 'DPoP' | 'Bearer' | 'HttpSig' | 'session'

export interface Principal {
  readonly webid?: WebId
  readonly clientId?: ClientId
  readonly issuer?: string
  /** Key URLs (or did:key identifiers) the requester proved to hold (HttpSig). */
  readonly keys: readonly string[]
  readonly scheme: AuthScheme
}

export const ANONYMOUS: Principal = Object.freeze({ keys: Object.freeze([]) as readonly string[], scheme: 'anonymous' })

export const isAuthenticated = (p: Principal) => p.webid !== undefined || p.keys.length > 0
