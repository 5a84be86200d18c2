// The replay memories' bounds are bytes of --memory-budget: what each memory may hold, and that a memory filled to its
// limits (every key held, every dropped horizon kept, every value) holds no more live heap than planned.

import { describe, expect, test } from 'bun:test'
import { heapStats } from 'bun:jsc'
import { memoryShares } from '../../src/lib/memory-budget.ts'
import { ENTRY_BYTES, replayBytes, replayLimits, spentTicketLimit } from '../../src/lib/replay-limits.ts'
import { PartitionedReplayMemory } from '../../src/lib/partitioned-replay-memory.ts'
import { replayKey } from '../../src/lib/replay-memory.ts'

const MiB = 1024 * 1024
const T = 1_700_000_000_000

describe('each replay memory keeps to its bytes', () => {
  test('the default and the smallest budget: every memory planned within its share, all four within 2/16 of the room', () => {
    for (const [budget, room] of [
      [128 * MiB, 64 * MiB],
      [96 * MiB, 32 * MiB],
    ] as const) {
      const r = memoryShares(budget).replay
      const planned =
        replayBytes(replayLimits(r.dpopProofs, 16_384)) +
        replayBytes(replayLimits(r.httpsigNonces, 16_384)) +
        replayBytes(replayLimits(r.tokenEndpointProofs, 16_384)) +
        spentTicketLimit(r.spentTickets) * ENTRY_BYTES
      expect(planned).toBeLessThanOrEqual((2 * room) / 16)
      expect(planned).toBeGreaterThan((2 * room) / 16 - 64 * 1024) // the share is used, not left idle
    }
  })

  test("a key's own share (--dpop-proofs-per-key) is kept as given; a larger budget holds more keys and values", () => {
    const small = replayLimits(3 * MiB, 16_384)
    const large = replayLimits(9 * MiB, 16_384)
    expect(small.perPartition).toBe(16_384)
    expect(large.partitions).toBeGreaterThan(small.partitions)
    expect(large.total).toBeGreaterThan(small.total)
    expect(small.dropped).toBe(4 * small.partitions)
  })

  test('a share too small for anything still keeps a few clients and a burst', () => {
    expect(replayLimits(0, 10)).toEqual({ perPartition: 10, total: 1024, partitions: 16, dropped: 64 })
    expect(spentTicketLimit(0)).toBe(1024)
  })

  test("filled to its limits by strangers' keys (held, dropped, full of values), a memory holds no more than planned", () => {
    const limits = replayLimits(3 * MiB, 16_384)
    const live = () => {
      Bun.gc(true)
      return heapStats().heapSize
    }
    const before = live()
    const m = new PartitionedReplayMemory(limits)
    // 43-character keys, as RFC 7638 thumbprints are; each issuer's keys in its own group
    const key = (i: number) => `k${String(i).padStart(42, '0')}`
    const group = (i: number) => `https://issuer-${i % 16}.example/`
    let k = 0
    // every dropped horizon kept (each key dropped while its values are live), then every key held
    for (; k < limits.dropped + limits.partitions; k++) m.remember(key(k), 1, T + 60_000, T, group(k))
    expect(m.droppedCount).toBe(limits.dropped)
    expect(m.partitionCount).toBe(limits.partitions)
    // then values up to the total, 65 to a key, then 129 (the dearest fills: a key's arrays just past a doubling),
    // into the keys held (the most recent `partitions` of them)
    let v = 2
    for (const upTo of [65, 129])
      for (let held = k - 1; held >= k - limits.partitions && m.size < limits.total; held--)
        for (let n = upTo === 65 ? 1 : 65; n < upTo && m.size < limits.total; n++) m.remember(key(held), replayKey(String(v++)), T + 60_000, T, 'g')
    expect(m.partitionCount).toBe(limits.partitions)
    expect(m.size).toBe(limits.total)
    const held = live() - before
    expect(held).toBeLessThanOrEqual(replayBytes(limits))
    expect(held).toBeGreaterThan(replayBytes(limits) / 2) // the measure sees the memory at all
  })
})
