// `bun test/lib/replay-heap.ts map|ordered|ordered-shrunk|filled`: live heap bytes, measured in a process of their own (a test file
// shares its process with the others, whose garbage a collection may free in the middle of a measure). Prints one
// JSON line. map / ordered: bytes a value, 65 values to each of 3,000 keys (a Map's table just doubled: the dearest
// growing fill for both); ordered-shrunk N: 129 values, then deleted down to N (86: the dearest shrinking fill). filled: a replay memory of 3 MiB filled to its limits the dearest way, and what was planned.

import { heapStats } from 'bun:jsc'
import { OrderedNumberMap } from '../../src/lib/ordered-number-map.ts'
import { PartitionedReplayMemory } from '../../src/lib/partitioned-replay-memory.ts'
import { replayBytes, replayLimits } from '../../src/lib/replay-limits.ts'
import { replayKey } from '../../src/lib/replay-memory.ts'

const T = 1_700_000_000_000

function live(): number {
  Bun.gc(true)
  Bun.gc(true)
  return heapStats().heapSize
}

/** `kept`: 129 values (arrays of 256 slots), then the oldest deleted down to `kept` (86: a third of the slots and one). */
function perValue(make: () => { set(k: number, v: number): unknown; delete(k: number): unknown }, kept?: number): number {
  const KEYS = 3000
  const shrunk = kept !== undefined
  const before = live()
  const held = Array.from({ length: KEYS }, (_, p) => {
    const m = make()
    for (let i = 0; i < (shrunk ? 129 : 65); i++) m.set(p * 1e6 + i * 7919, T + i)
    if (shrunk) for (let i = 0; i < 129 - kept; i++) m.delete(p * 1e6 + i * 7919)
    return m
  })
  const bytes = (live() - before) / (KEYS * (kept ?? 65))
  if (held.length !== KEYS) throw new Error('lost the maps')
  return bytes
}

function filled(): { held: number; planned: number; partitions: number; dropped: number; size: number } {
  const limits = replayLimits(3 * 1024 * 1024, 16_384)
  const before = live()
  const m = new PartitionedReplayMemory(limits)
  // 43-character keys, as RFC 7638 thumbprints are; each issuer's keys in its own group
  const key = (i: number) => `k${String(i).padStart(42, '0')}`
  const group = (i: number) => `https://issuer-${i % 16}.example/`
  let k = 0
  // every dropped horizon kept (each key dropped while its values are live), then every key held
  for (; k < limits.dropped + limits.partitions; k++) m.remember(key(k), 1, T + 60_000, T, group(k))
  // then values up to the total, 65 to a key, then 129 (the dearest fills: a key's arrays just past a doubling),
  // into the keys held (the most recent `partitions` of them)
  let v = 2
  for (const upTo of [65, 129])
    for (let held = k - 1; held >= k - limits.partitions && m.size < limits.total; held--)
      for (let n = upTo === 65 ? 1 : 65; n < upTo && m.size < limits.total; n++) m.remember(key(held), replayKey(String(v++)), T + 60_000, T, 'g')
  const held = live() - before
  return { held, planned: replayBytes(limits), partitions: m.partitionCount, dropped: m.droppedCount, size: m.size }
}

const what = process.argv[2]
if (what === 'map') console.log(JSON.stringify(perValue(() => new Map<number, number>())))
else if (what === 'ordered') console.log(JSON.stringify(perValue(() => new OrderedNumberMap())))
else if (what === 'ordered-shrunk') console.log(JSON.stringify(perValue(() => new OrderedNumberMap(), Number(process.argv[3]))))
else if (what === 'filled') console.log(JSON.stringify(filled()))
else throw new Error('usage: bun test/lib/replay-heap.ts map|ordered|ordered-shrunk|filled')
