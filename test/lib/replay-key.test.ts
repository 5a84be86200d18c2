// The key of every value the replay memories keep (DPoP jtis, HttpSig nonces, spent UMA tickets).

import { describe, expect, test } from 'bun:test'
import { replayKey } from '../../src/lib/replay-memory.ts'

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
