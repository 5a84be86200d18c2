import { describe, expect, test } from 'bun:test'
import { presign, PRESIGNED_MAX_AGE_MS } from './presigned.ts'

describe('presigned proofs for the benchmark', () => {
  test('are handed out oldest first (in the order signed, as a client sends them), each once, then signed on the fly', async () => {
    let n = 0
    const take = await presign(async () => ++n, 3, { now: () => 0 })
    expect([await take(), await take(), await take()]).toEqual([1, 2, 3])
    expect(await take()).toBe(4)
  })
  test('never older than the pod accepts: a stale pool is dropped and fresh ones signed', async () => {
    const clock = { now: 0 }
    let n = 0
    const take = await presign(async () => ++n, 3, { now: () => clock.now })
    expect(await take()).toBe(1)
    clock.now += PRESIGNED_MAX_AGE_MS + 1
    // 2 and 3 were signed at 0: past the bound, so neither is sent.
    expect(await take()).toBe(4)
    expect(await take()).toBe(5)
  })
})
