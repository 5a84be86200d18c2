// The one replay memory behind DPoP jtis, HttpSig nonces and spent UMA tickets.

import { describe, expect, test } from 'bun:test'
import { heapStats } from 'bun:jsc'
import { ReplayMemory, replayKey } from '../../src/lib/replay-memory.ts'

describe('replayKey', () => {
  test('is a whole number below 2^48, the same for the same parts and different for others', () => {
    const k = replayKey('https://pod.example/doc', 'jti-1')
    expect(Number.isSafeInteger(k) && k >= 0 && k < 2 ** 48).toBe(true)
    expect(replayKey('https://pod.example/doc', 'jti-1')).toBe(k)
    expect(replayKey('https://pod.example/doc', 'jti-2')).not.toBe(k)
    expect(replayKey('https://pod.example/other', 'jti-1')).not.toBe(k)
  })
  test('keeps the parts apart: ("ab", "c") is not ("a", "bc")', () => {
    expect(replayKey('ab', 'c')).not.toBe(replayKey('a', 'bc'))
  })
})

describe('ReplayMemory', () => {
  test('has and forget', () => {
    const m = new ReplayMemory(10)
    expect(m.remember(1, 1000, 0)).toBe('fresh')
    expect(m.has(1, 999)).toBe(true)
    expect(m.has(1, 1000)).toBe(false)
    m.forget(1)
    expect(m.has(1, 0)).toBe(false)
    expect(m.remember(1, 1000, 0)).toBe('fresh')
  })
  test('full: the Retry-After seconds are until the earliest entry expires, rounded up', () => {
    const m = new ReplayMemory(2)
    m.remember(1, 10_500, 0)
    m.remember(2, 60_000, 0)
    expect(m.remember(3, 60_000, 1000)).toBe('full')
    expect(m.secondsUntilRoom(1000)).toBe(10)
    expect(m.remember(3, 60_000, 10_500)).toBe('fresh')
  })
  test('entries hold no string on the heap: 100,000 live entries take under 10 MB', () => {
    // String keys (a base64url SHA-256 per entry) took ~12.7 MB for as many.
    Bun.gc(true)
    const before = heapStats().heapSize
    const m = new ReplayMemory(200_000)
    const now = Date.now()
    for (let i = 0; i < 100_000; i++) m.remember(replayKey('https://pod.example/doc', `jti-${i}`), now + 60_000, now)
    Bun.gc(true)
    expect(m.size).toBe(100_000)
    expect((heapStats().heapSize - before) / 1e6).toBeLessThan(10)
  })
})
