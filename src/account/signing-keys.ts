// The OP's ES256 signing keys: persisted in the store's system space, created on first use, rotatable.

import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JSONWebKeySet, type JWK } from 'jose'
import type { Store } from '../store/open-store.ts'
import { jwkThumbprint } from '../lib/jwk-thumbprint.ts'

const SYSTEM_KEY = 'op-signing-keys'
export const SIGNING_ALG = 'ES256'

/**
 * How long a retired key stays in the JWKS: longer than any JWT we sign lives (ID token 600 s,
 * access token 300 s) plus verifiers' clock tolerance, so no token outlives its key.
 */
export const RETIRED_KEY_RETENTION_MS = 2 * 3600 * 1000

interface StoredKey {
  readonly kid: string
  /** Private JWK: stays in the store; never logged, never served. */
  readonly privateJwk: JWK
  readonly publicJwk: JWK
  readonly createdAt: number
  readonly retiredAt?: number
}

interface StoredKeys {
  readonly keys: readonly StoredKey[]
}

export interface SigningKey {
  readonly kid: string
  readonly alg: typeof SIGNING_ALG
  readonly privateKey: CryptoKey
}

interface Loaded {
  readonly stored: StoredKeys
  readonly current: SigningKey
}

async function newKey(now: number): Promise<StoredKey> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true })
  const publicJwk = await exportJWK(publicKey)
  const kid = await jwkThumbprint(publicJwk)
  return { kid, privateJwk: { ...(await exportJWK(privateKey)), kid }, publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' }, createdAt: now }
}

async function toLoaded(stored: StoredKeys): Promise<Loaded> {
  const cur = stored.keys.find(k => k.retiredAt === undefined)
  if (!cur) throw new Error('the stored signing keys have no current key')
  const privateKey = (await importJWK(cur.privateJwk, SIGNING_ALG)) as CryptoKey
  return { stored, current: { kid: cur.kid, alg: SIGNING_ALG, privateKey } }
}

async function load(store: Store, now: number): Promise<Loaded> {
  const found = (await store.system.get(SYSTEM_KEY)) as StoredKeys | undefined
  if (found?.keys.some(k => k.retiredAt === undefined)) return toLoaded(found)
  const stored: StoredKeys = { keys: [...(found?.keys ?? []), await newKey(now)] }
  await store.system.put(SYSTEM_KEY, stored, { sync: true })
  return toLoaded(stored)
}

export interface SigningKeys {
  /** The key new tokens are signed with; created and persisted on first use. */
  current(now: number): Promise<SigningKey>
  /** Public keys a verifier may meet: the current one and retired ones whose tokens may still be alive. */
  publicJwks(now: number): Promise<JSONWebKeySet>
  /**
   * Retires the current key (it stays in the JWKS for RETIRED_KEY_RETENTION_MS) and makes a new one
   * current; keys retired longer ago are deleted. Returns the new key id.
   */
  rotate(now: number): Promise<string>
}

/**
 * The OP's signing keys of one store, built once by the wiring: the key is imported once, and
 * concurrent first uses create one key, not two.
 */
export function makeSigningKeys(store: Store): SigningKeys {
  let loaded: Promise<Loaded> | undefined
  const getLoaded = (now: number): Promise<Loaded> => {
    if (!loaded) {
      const p = load(store, now)
      loaded = p
      p.catch(() => {
        if (loaded === p) loaded = undefined
      })
    }
    return loaded
  }
  return {
    current: async now => (await getLoaded(now)).current,
    publicJwks: async now => {
      const { stored } = await getLoaded(now)
      return { keys: stored.keys.filter(k => k.retiredAt === undefined || k.retiredAt + RETIRED_KEY_RETENTION_MS > now).map(k => k.publicJwk) }
    },
    rotate: async now => {
      const { stored } = await getLoaded(now)
      const fresh = await newKey(now)
      const keys = stored.keys.map(k => (k.retiredAt === undefined ? { ...k, retiredAt: now } : k)).filter(k => k.retiredAt! + RETIRED_KEY_RETENTION_MS > now)
      const next: StoredKeys = { keys: [...keys, fresh] }
      await store.system.put(SYSTEM_KEY, next, { sync: true })
      const p = toLoaded(next)
      loaded = p
      await p
      return fresh.kid
    },
  }
}
