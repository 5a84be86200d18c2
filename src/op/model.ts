// The OP's constants and shared request schemas (its paths are in http/pod-paths.ts).

import { t } from 'elysia'

/** OIDC Core §3.1.2, RFC 7636: single use, ~60 s. */
export const CODE_TTL_MS = 60_000
/** A used code is remembered this long, so a late second redemption still revokes what it issued. */
export const USED_CODE_MEMORY_MS = 10 * 60_000
/** Time between the authorization request and the end of login + consent. */
export const INTERACTION_TTL_MS = 10 * 60_000
/** Short, because a third-party resource server cannot learn of a revocation. */
export const ACCESS_TOKEN_TTL_S = 300
/** Solid-OIDC §6: the primer's example lifetime. */
export const ID_TOKEN_TTL_S = 600
/** Sliding: every refresh extends the session by this much. */
export const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000

/** Solid-OIDC §5, OIDC Discovery §3 `scopes_supported`, verbatim. */
export const SUPPORTED_SCOPES = ['openid', 'webid', 'profile', 'email', 'offline_access'] as const

/** Human text for the consent page. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  openid: 'Confirm that you are signed in (OpenID Connect)',
  webid: 'Know your WebID and act as you at Solid pods, with the access you have there',
  profile: 'Read your basic profile',
  email: 'Read your email address, if your profile lists one',
  offline_access: 'Stay signed in when you are not using it (refresh tokens)',
  identity: 'None of your data: it asks only who you are',
}

/** Form bodies whose every field may be absent: the functions name what is missing, with the spec's code. */
export const OptionalFields = (...names: string[]) => t.Object(Object.fromEntries(names.map(n => [n, t.Optional(t.Union([t.String(), t.Array(t.String())]))])))
