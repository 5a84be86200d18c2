// The replay memories' bounds are bytes of --memory-budget: what each memory may hold, and that a memory filled to its
// limits holds no more live heap than planned (replay-heap.slow.test.ts).

import { describe, expect, test } from 'bun:test'
import { memoryShares } from '../../src/lib/memory-budget.ts'
import { ENTRY_BYTES, replayBytes, replayLimits, spentTicketLimit } from '../../src/lib/replay-limits.ts'

const MiB = 1024 * 1024

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
})
