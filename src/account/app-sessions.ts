// An application's session with the owner's identity: one per redeemed code, refresh family included.

import type { Store } from '../store/open-store.ts'
import { LruCache } from '../lib/lru-cache.ts'
import { deleteRecord, getRecord, putRecord, readRecords, updateRecord } from '../store/records.ts'
import type { ClientId, WebId } from './ids.ts'

const KIND = 'app-session'
const REVOKED_KIND = 'revoked-grant'

/**
 * A revoked session's id is remembered as long as a JWT issued to it may live (ID token 600 s,
 * plus clock tolerance), so our resource server refuses its access tokens before they expire.
 */
export const REVOCATION_MEMORY_MS = 15 * 60 * 1000

export interface AppSession {
  /** `sid` of the tokens issued to it; public. */
  readonly sid: string
  readonly clientId: ClientId
  readonly clientName?: string
  readonly webid: WebId
  readonly scope: string
  /** RFC 9449 §5: every token of the session is bound to this DPoP key thumbprint. */
  readonly jkt: string
  readonly authTime: number
  /** The owner's login session (browser cookie) in which the app was authorized. */
  readonly loginSessionId?: string
  readonly createdAt: number
  readonly lastUsedAt: number
  /** Present when offline_access was granted: the refresh family (see op/refresh-tokens.ts). */
  readonly refresh?: { readonly secret: string; readonly generation: number }
}

export const getAppSession = (store: Store, sid: string, now: number) => getRecord<AppSession>(store, KIND, sid, now)

export async function saveAppSession(store: Store, session: AppSession, expiresAt: number): Promise<void> {
  await putRecord(store, KIND, session.sid, session, expiresAt)
}

/** Atomic read-modify-write of one session (refresh rotation must not run twice for one token). */
export function updateAppSession<R>(
  store: Store,
  sid: string,
  now: number,
  fn: (current: AppSession | undefined) => { next?: AppSession | null; expiresAt?: number; result: R },
): Promise<R> {
  return updateRecord<AppSession, R>(store, KIND, sid, now, fn)
}

export async function listAppSessions(store: Store, now: number): Promise<(AppSession & { expiresAt: number })[]> {
  return (await readRecords<AppSession>(store, KIND, now)).map(r => ({ ...r.value, expiresAt: r.expiresAt })).sort((a, b) => a.createdAt - b.createdAt)
}

/**
 * Whether a token naming app session `sid` (our own ID or UMA tokens) may still be honoured: the session
 * is stored (not ended, not expired), not revoked, and belongs to this WebID and app. A token of a
 * revoked app must never buy access elsewhere, e.g. an ID token traded at our UMA AS.
 */
export async function isLiveAppSession(
  store: Store,
  revocations: Pick<SessionRevocations, 'isRevoked'>,
  s: { readonly sid: string; readonly webid: string; readonly clientId: string },
  now: number,
): Promise<boolean> {
  if (await revocations.isRevoked(s.sid, now)) return false
  const session = await getAppSession(store, s.sid, now)
  return session !== undefined && session.webid === s.webid && session.clientId === s.clientId
}

export interface SessionRevocations {
  /** Ends the session: its refresh tokens stop working and our RS refuses its access tokens. */
  revoke(sid: string, now: number): Promise<void>
  /** Revokes every session of a client (consent withdrawn, client deleted); returns how many. */
  revokeClient(clientId: string, now: number): Promise<number>
  /**
   * The owner's login session `loginSessionId` was revoked: every app session authorized in it ends,
   * and a code it approved that is not redeemed yet will not be (isLoginRevoked). Returns how many.
   */
  revokeLogin(loginSessionId: string, now: number): Promise<number>
  isRevoked(sid: string, now: number): Promise<boolean>
  isLoginRevoked(loginSessionId: string, now: number): Promise<boolean>
}

/**
 * Built once by the wiring. Every authenticated request asks whether its session was revoked; only
 * `revoke` (in this process) writes revocations, so the answer is kept in memory and updated there.
 * The generation keeps a lookup that raced a revocation from caching its stale "not revoked".
 */
export function makeSessionRevocations(store: Store): SessionRevocations {
  const known = new LruCache<string, boolean>(50_000)
  let generation = 0
  const revoke = async (sid: string, now: number) => {
    await putRecord(store, REVOKED_KIND, sid, { revokedAt: now }, now + REVOCATION_MEMORY_MS)
    generation++
    known.set(sid, true, now + REVOCATION_MEMORY_MS)
    await deleteRecord(store, KIND, sid)
  }
  const revokeWhere = async (now: number, which: (s: AppSession) => boolean) => {
    const mine = (await readRecords<AppSession>(store, KIND, now)).filter(r => which(r.value))
    for (const r of mine) await revoke(r.key, now)
    return mine.length
  }
  // Login ids and session ids are both random; the prefix keeps the two families apart in one key space
  const loginKey = (id: string) => `login:${id}`
  return {
    revoke,
    revokeClient: (clientId, now) => revokeWhere(now, s => s.clientId === clientId),
    async revokeLogin(loginSessionId, now) {
      // Written first: a code approved in this login and redeemed meanwhile is refused, or its session is found below
      await putRecord(store, REVOKED_KIND, loginKey(loginSessionId), { revokedAt: now }, now + REVOCATION_MEMORY_MS)
      return revokeWhere(now, s => s.loginSessionId === loginSessionId)
    },
    isLoginRevoked: async (loginSessionId, now) => (await getRecord(store, REVOKED_KIND, loginKey(loginSessionId), now)) !== undefined,
    async isRevoked(sid, now) {
      const hit = known.get(sid, now)
      if (hit !== undefined) return hit
      const before = generation
      const revoked = (await getRecord(store, REVOKED_KIND, sid, now)) !== undefined
      if (before === generation) known.set(sid, revoked, now + REVOCATION_MEMORY_MS)
      return revoked
    },
  }
}
