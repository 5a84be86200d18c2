// The HttpSig nonce memory: a nonce once per key while live, one share per signing key (issue 33), 429 for that key alone.

import { describe, expect, spyOn, test } from 'bun:test'
import { NonceCache } from '../../../src/auth/httpsig/nonce-cache.ts'
import { createdWindowEnd } from '../../../src/auth/httpsig/verify-request.ts'
import { overShareError, OVER_SHARE_LOG_INTERVAL_MS } from '../../../src/auth/over-share.ts'
import { log } from '../../../src/log.ts'

const CREATED = 1_764_030_000
const NOW = CREATED * 1000 + 200
const UNTIL = createdWindowEnd(CREATED)

describe('HttpSig nonce replay cache', () => {
  test('a nonce is accepted once per key while live, and again after it expired', () => {
    const c = new NonceCache()
    expect(c.remember('A', 'k1', 'n', 1000, 0)).toBe('fresh')
    expect(c.remember('A', 'k1', 'n', 1000, 500)).toBe('replayed')
    expect(c.remember('A', 'k2', 'n', 1000, 500)).toBe('fresh')
    expect(c.remember('B', 'k1', 'n', 1000, 500)).toBe('fresh')
    expect(c.remember('A', 'k1', 'n', 3000, 1000)).toBe('fresh')
  })

  test('the window end is a millisecond past the last instant verification accepts', () => {
    expect(createdWindowEnd(CREATED)).toBe(CREATED * 1000 + 60_000 + 1)
    const c = new NonceCache()
    expect(c.remember('A', 'k', 'n', UNTIL, NOW)).toBe('fresh')
    expect(c.remember('A', 'k', 'n', UNTIL, CREATED * 1000 + 60_000)).toBe('replayed')
  })

  test('one key past its share is refused alone with a Retry-After; another key, full memory or not, is served', () => {
    const c = new NonceCache({ perPartition: 3, total: 100, partitions: 10 })
    for (let i = 0; i < 4; i++) expect(c.remember('A', 'ka', `a${i}`, UNTIL, NOW)).toBe('fresh')
    // A's oldest nonce went, so A's signatures of that second are refused now; B's are not
    const over = c.remember('A', 'ka', 'a9', UNTIL, NOW)
    expect(over).toEqual({ retryAfterSeconds: 1, perKey: 3 })
    for (let i = 0; i < 3; i++) expect(c.remember('B', 'kb', `b${i}`, UNTIL, NOW)).toBe('fresh')
    // the forgotten nonce of A is refused too (never accepted again), the remembered ones are replays
    expect(c.remember('A', 'ka', 'a0', UNTIL, NOW)).not.toBe('fresh')
    expect(c.remember('A', 'ka', 'a3', UNTIL, NOW)).toBe('replayed')
    // A's next second of created is above its horizon
    expect(c.remember('A', 'ka', 'a10', createdWindowEnd(CREATED + 1), NOW + 1000)).toBe('fresh')
    const err = overShareError(over as Exclude<typeof over, string>, 'this key signs requests')
    expect([err.status, err.code, err.headers?.['retry-after'], err.logged]).toEqual([429, 'too_many_requests', '1', true])
  })

  test('when all keys together are full, the fullest key gives up its oldest, never the newcomer refused', () => {
    const c = new NonceCache({ perPartition: 10, total: 10, partitions: 10 })
    for (let i = 0; i < 10; i++) expect(c.remember('A', 'ka', `a${i}`, UNTIL, NOW)).toBe('fresh')
    for (let i = 0; i < 5; i++) expect(c.remember('B', 'kb', `b${i}`, UNTIL, NOW)).toBe('fresh')
    expect(c.size).toBe(10)
  })

  test('an over-share key is logged once an interval, with the count refused since', () => {
    const warn = spyOn(log, 'warn').mockImplementation(() => {})
    try {
      // values live past the second line's instant, so A is still over its share then
      const LATER = NOW + 10 * OVER_SHARE_LOG_INTERVAL_MS
      const c = new NonceCache({ perPartition: 1, total: 100, partitions: 10 })
      c.remember('A', 'ka', 'x', LATER, NOW)
      c.remember('A', 'ka', 'y', LATER, NOW)
      for (let i = 0; i < 3; i++) c.remember('A', 'ka', `z${i}`, LATER, NOW + i)
      expect(warn.mock.calls).toEqual([['httpsig.key_over_share', { jkt: 'A', keyid: 'ka', perKey: 1, refusedSinceLastLine: 0 }]])
      c.remember('A', 'ka', 'w', LATER, NOW + OVER_SHARE_LOG_INTERVAL_MS)
      expect(warn.mock.calls[1]).toEqual(['httpsig.key_over_share', { jkt: 'A', keyid: 'ka', perKey: 1, refusedSinceLastLine: 2 }])
    } finally {
      warn.mockRestore()
    }
  })

  test('expired entries are swept on an idle pod too, with no new signature arriving', async () => {
    const c = new NonceCache({ sweepEveryMs: 10 })
    const now = Date.now()
    for (let i = 0; i < 50; i++) c.remember('A', 'k', `n${i}`, now + 30, now)
    c.remember('A', 'k', 'live', now + 600_000, now)
    expect(c.size).toBe(51)
    for (let i = 0; i < 200 && c.size > 1; i++) await Bun.sleep(10)
    expect(c.size).toBe(1)
    expect(c.remember('A', 'k', 'live', now + 600_000, Date.now())).toBe('replayed')
  })
})
