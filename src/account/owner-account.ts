// The pod owner's account: WebID and argon2id password hash, kept in the store's system space.

import type { Store } from '../store/open-store.ts'
import type { WebId } from './ids.ts'
import { sha256Base64url } from '../lib/text.ts'
import { checkPasswordStrength } from '../lib/password-rules.ts'

export interface OwnerAccount {
  readonly webid: WebId
  /** Bun.password argon2id hash; absent until the owner sets a password. */
  readonly passwordHash?: string
  readonly createdAt: number
}

const OWNER_KEY = 'owner'

export const getOwnerAccount = (store: Store) => store.system.get(OWNER_KEY) as Promise<OwnerAccount | undefined>

export async function saveOwnerAccount(store: Store, account: OwnerAccount) {
  await store.system.put(OWNER_KEY, account, { sync: true })
}

export async function setOwnerPassword(store: Store, password: string) {
  const account = await getOwnerAccount(store)
  if (!account) throw new Error('the data directory has no owner yet')
  const problem = checkPasswordStrength(password)
  if (problem) throw new Error(problem)
  const passwordHash = await Bun.password.hash(password, { algorithm: 'argon2id' })
  await saveOwnerAccount(store, { ...account, passwordHash })
}

/** Constant-time by construction of argon2 verification; false when no password is set. */
export async function verifyOwnerPassword(store: Store, password: string): Promise<boolean> {
  const account = await getOwnerAccount(store)
  if (!account?.passwordHash) return false
  return Bun.password.verify(password, account.passwordHash)
}

const SETUP_KIND = 'owner-setup'
const SETUP_LIFETIME_MS = 7 * 24 * 3600 * 1000

const SETUP_PREFIX = `${SETUP_KIND}\0`
const setupKeys = (store: Store) => store.records.keys({ gt: SETUP_PREFIX, lt: `${SETUP_PREFIX}\uffff` })

/**
 * A one-time secret for the setup link; only its hash is stored. Only the newest link works: each
 * restart without a password and each `setup-link` would otherwise leave one more live link for 7 days.
 */
export async function createSetupToken(store: Store, now: number): Promise<string> {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
  const batch = store.records.batch()
  for await (const key of setupKeys(store)) batch.del(key)
  batch.put(`${SETUP_PREFIX}${sha256Base64url(token)}`, { v: { createdAt: now }, exp: now + SETUP_LIFETIME_MS })
  await batch.write({ sync: true })
  return token
}

export async function isSetupTokenValid(store: Store, token: string, now: number): Promise<boolean> {
  const rec = await store.records.get(`${SETUP_KIND}\0${sha256Base64url(token)}`)
  return rec !== undefined && rec.exp > now
}

/** Sets the password and burns the token. */
export async function completeSetup(store: Store, token: string, password: string, now: number): Promise<void> {
  if (!(await isSetupTokenValid(store, token, now))) throw new Error('this setup link is invalid, used or expired')
  await setOwnerPassword(store, password)
  for await (const key of setupKeys(store)) await store.records.del(key, { sync: true })
}
