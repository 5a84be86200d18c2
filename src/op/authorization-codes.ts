// Authorization codes (record kind `auth-code`, keyed by the code's hash): single use, 60 s.

import { HttpError } from '../http/errors.ts'
import type { Store } from '../store/open-store.ts'
import { putRecord, updateRecord } from '../store/records.ts'
import type { WebId } from '../account/ids.ts'
import { CODE_TTL_MS, USED_CODE_MEMORY_MS } from './model.ts'
import { sha256Base64url } from '../lib/text.ts'

const KIND = 'auth-code'

/** OIDC Core §3.1.2, RFC 7636: the primer's code record plus what the token endpoint must compare. */
export interface CodeRecord {
  readonly clientId: string
  readonly clientName?: string
  readonly redirectUri: string
  readonly webid: WebId
  readonly scopes: readonly string[]
  readonly nonce?: string
  readonly codeChallenge?: string
  readonly codeChallengeMethod?: 'S256' | 'plain'
  readonly authTime: number
  readonly includeAuthTime: boolean
  readonly dpopJkt?: string
  /** The owner's login session (browser) that approved it: RP-initiated logout by this app needs no confirmation there. */
  readonly loginSessionId?: string
  /** Set on redemption: the app session it started, revoked if the code comes back. */
  readonly redeemedBy?: string
}

/** A 256-bit random code; only its hash is stored. */
export async function issueAuthorizationCode(store: Store, record: CodeRecord, now: number): Promise<string> {
  const code = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  await putRecord(store, KIND, sha256Base64url(code), record, now + CODE_TTL_MS)
  return code
}

export type Redemption =
  | { readonly ok: true; readonly record: CodeRecord }
  /** RFC 6749 §4.1.2: a second redemption; the caller revokes the session the first one started. */
  | { readonly ok: false; readonly replayOf: string }

/**
 * Atomically checks and marks a code used. `check` throws (400 invalid_grant…) to refuse without
 * using the code up: a wrong verifier must not let an attacker burn the client's code.
 */
export function redeemAuthorizationCode(store: Store, code: string, sid: string, now: number, check: (r: CodeRecord) => void): Promise<Redemption> {
  return updateRecord<CodeRecord, Redemption>(store, KIND, sha256Base64url(code), now, current => {
    // RFC 6749 §5.2: unknown, expired (60 s) → invalid_grant
    if (!current) throw new HttpError(400, 'invalid_grant', 'the authorization code is unknown or expired (codes live 60 s and work once)')
    if (current.redeemedBy !== undefined) return { result: { ok: false, replayOf: current.redeemedBy } }
    check(current)
    return { next: { ...current, redeemedBy: sid }, expiresAt: now + USED_CODE_MEMORY_MS, result: { ok: true, record: current } }
  })
}
