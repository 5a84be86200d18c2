// The replay memories' bytes, each measured in a process of its own (test/lib/replay-heap.ts): a test file shares its
// process with the others, whose garbage a collection may free in the middle of a measure.

import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { ENTRY_BYTES, replayBytes, replayLimits } from '../../src/lib/replay-limits.ts'

const MiB = 1024 * 1024

function measure<T>(what: 'map' | 'ordered' | 'ordered-shrunk' | 'filled', arg = ''): T {
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, 'replay-heap.ts'), what, arg])
  if (run.exitCode !== 0) throw new Error(run.stderr.toString())
  return JSON.parse(run.stdout.toString()) as T
}

describe('the replay memories in bytes', () => {
  test('a value in an OrderedNumberMap costs less than half of what it costs in a Map of numbers, both at their dearest', () => {
    const map = measure<number>('map')
    const ordered = measure<number>('ordered')
    expect(ordered).toBeLessThan(map / 2)
    expect(ordered).toBeLessThanOrEqual(ENTRY_BYTES) // what the replay memories plan a value at
  })

  test('a key emptied to a third of its arrays and one value, or further, still costs no more than planned: the arrays halve', () => {
    expect(measure<number>('ordered-shrunk', '86')).toBeLessThanOrEqual(ENTRY_BYTES)
    expect(measure<number>('ordered-shrunk', '30')).toBeLessThanOrEqual(ENTRY_BYTES)
  })

  test("filled to its limits by strangers' keys (held, dropped, full of values), a memory holds no more than planned", () => {
    const limits = replayLimits(3 * MiB, 16_384)
    const r = measure<{ held: number; planned: number; partitions: number; dropped: number; size: number }>('filled')
    expect({ partitions: r.partitions, dropped: r.dropped, size: r.size }).toEqual({
      partitions: limits.partitions,
      dropped: limits.dropped,
      size: limits.total,
    })
    expect(r.planned).toBe(replayBytes(limits))
    expect(r.held).toBeLessThanOrEqual(r.planned)
    expect(r.held).toBeGreaterThan(r.planned / 2) // the measure sees the memory at all
  })
})
