// The replay cache never forgets a live nonce: when full it refuses instead.

import { describe, expect, test } from 'bun:test'
import { NonceCache } from '../../../src/auth/httpsig/nonce-cache.ts'

describe('HttpSig nonce replay cache', () => {
  test('a nonce is accepted once per key while live, and again after it expired', () => {
    const c = new NonceCache(10)
    expect(c.remember('k1', 'n', 1000, 0)).toBe('fresh')
    expect(c.remember('k1', 'n', 1000, 500)).toBe('replayed')
    expect(c.remember('k2', 'n', 1000, 500)).toBe('fresh')
    expect(c.remember('k1', 'n', 3000, 1000)).toBe('fresh')
  })
  test('full of live entries: new nonces are refused, remembered ones still count as replays', () => {
    const c = new NonceCache(2)
    expect(c.remember('k', 'a', 10_000, 0)).toBe('fresh')
    expect(c.remember('k', 'b', 10_000, 0)).toBe('fresh')
    expect(c.remember('k', 'c', 10_000, 0)).toBe('full')
    expect(c.remember('k', 'a', 10_000, 1)).toBe('replayed')
    expect(c.size).toBe(2)
  })
  test('expired entries make room', () => {
    const c = new NonceCache(2)
    c.remember('k', 'a', 100, 0)
    c.remember('k', 'b', 10_000, 0)
    expect(c.remember('k', 'c', 10_000, 2000)).toBe('fresh')
    expect(c.remember('k', 'b', 10_000, 2000)).toBe('replayed')
  })
  test('expired entries are swept on an idle pod too, with no new signature arriving', async () => {
    const c = new NonceCache(100, { sweepEveryMs: 10 })
    const now = Date.now()
    for (let i = 0; i < 50; i++) c.remember('k', `n${i}`, now + 30, now)
    c.remember('k', 'live', now + 600_000, now)
    expect(c.size).toBe(51)
    for (let i = 0; i < 200 && c.size > 1; i++) await Bun.sleep(10)
    expect(c.size).toBe(1)
    expect(c.remember('k', 'live', now + 600_000, Date.now())).toBe('replayed')
  })
})
