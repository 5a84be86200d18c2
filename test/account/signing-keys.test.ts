import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compactVerify, createLocalJWKSet, SignJWT } from 'jose'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { makeSigningKeys, RETIRED_KEY_RETENTION_MS, type SigningKeys } from '../../src/account/signing-keys.ts'

// The wiring builds one SigningKeys per store; the tests do the same, per opened store.
const built = new Map<Store, SigningKeys>()
const keysOf = (store: Store) => built.get(store) ?? built.set(store, makeSigningKeys(store)).get(store)!
const getSigningKey = (store: Store, now: number) => keysOf(store).current(now)
const readPublicJwks = (store: Store, now: number) => keysOf(store).publicJwks(now)
const rotateSigningKey = (store: Store, now: number) => keysOf(store).rotate(now)

const T0 = 1_800_000_000_000
const dirs: string[] = []
const stores: Store[] = []
async function fresh(dir = mkdtempSync(join(tmpdir(), 'solopod-keys-'))): Promise<{ store: Store; dir: string }> {
  dirs.push(dir)
  const store = await openStore(dir)
  stores.push(store)
  return { store, dir }
}
afterEach(async () => {
  built.clear()
  for (const s of stores.splice(0)) if (s.db.status === 'open') await s.close()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const sign = async (store: Store, now: number) => {
  const key = await getSigningKey(store, now)
  return new SignJWT({ a: 1 }).setProtectedHeader({ alg: 'ES256', kid: key.kid }).sign(key.privateKey)
}
const verifies = async (jwt: string, store: Store, now: number) =>
  compactVerify(jwt, createLocalJWKSet(await readPublicJwks(store, now))).then(
    () => true,
    () => false,
  )

describe('OP signing keys', () => {
  test('are created on first use and signed tokens verify against the JWKS', async () => {
    const { store } = await fresh()
    expect(await verifies(await sign(store, T0), store, T0)).toBe(true)
  })
  test('persist across a restart (same kid, old tokens still verify)', async () => {
    const { store, dir } = await fresh()
    const kid = (await getSigningKey(store, T0)).kid
    const jwt = await sign(store, T0)
    await store.close()
    const reopened = await openStore(dir)
    stores.push(reopened)
    expect((await getSigningKey(reopened, T0)).kid).toBe(kid)
    expect(await verifies(jwt, reopened, T0)).toBe(true)
  })
  test('the JWKS holds public keys only; the private key stays in the store', async () => {
    const { store } = await fresh()
    await getSigningKey(store, T0)
    const { keys } = await readPublicJwks(store, T0)
    for (const k of keys) for (const m of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']) expect(k).not.toHaveProperty(m)
  })
  test('rotation signs with a new key and keeps the old public key until its tokens expired', async () => {
    const { store } = await fresh()
    const oldKid = (await getSigningKey(store, T0)).kid
    const oldJwt = await sign(store, T0)
    const newKid = await rotateSigningKey(store, T0 + 1000)
    expect(newKid).not.toBe(oldKid)
    expect((await getSigningKey(store, T0 + 1000)).kid).toBe(newKid)
    expect((await readPublicJwks(store, T0 + 1000)).keys.map(k => k.kid)).toEqual([oldKid, newKid])
    expect(await verifies(oldJwt, store, T0 + 1000)).toBe(true)
    const later = T0 + 1000 + RETIRED_KEY_RETENTION_MS
    expect((await readPublicJwks(store, later)).keys.map(k => k.kid)).toEqual([newKid])
    expect(await verifies(oldJwt, store, later)).toBe(false)
  })
  test('a second rotation drops keys retired longer ago than the retention', async () => {
    const { store } = await fresh()
    const first = (await getSigningKey(store, T0)).kid
    await rotateSigningKey(store, T0)
    const third = await rotateSigningKey(store, T0 + RETIRED_KEY_RETENTION_MS + 1)
    const kids = (await readPublicJwks(store, T0 + RETIRED_KEY_RETENTION_MS + 1)).keys.map(k => k.kid)
    expect(kids).not.toContain(first)
    expect(kids).toContain(third)
    expect(kids.length).toBe(2)
  })
})
