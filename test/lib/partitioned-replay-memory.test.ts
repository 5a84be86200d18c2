// The replay memory split by client key (DPoP jtis per jkt): bounded per key, in total and in keys, and never a way to replay.

import { describe, expect, test } from 'bun:test'
import { PartitionedReplayMemory } from '../../src/lib/partitioned-replay-memory.ts'

const T = 1_700_000_000_000
const limits = (o: Partial<ConstructorParameters<typeof PartitionedReplayMemory>[0]> = {}) => ({ perPartition: 1000, total: 10_000, partitions: 100, ...o })

describe('PartitionedReplayMemory', () => {
  test('a value is refused again within its key until its until; the same value of another key is its own', () => {
    const m = new PartitionedReplayMemory(limits())
    expect(m.remember('a', 1, T + 60_000, T)).toBe('fresh')
    expect(m.remember('a', 1, T + 60_000, T + 59_999)).toBe('replayed')
    expect(m.remember('b', 1, T + 60_000, T)).toBe('fresh')
    expect(m.remember('a', 1, T + 120_000, T + 60_000)).toBe('fresh')
  })
  test("a key filling its share never refuses another key's fresh values", () => {
    const m = new PartitionedReplayMemory(limits({ perPartition: 10 }))
    for (let i = 0; i < 10_000; i++) m.remember('flood', i, T + 60_000, T)
    for (let i = 0; i < 10; i++) expect(m.remember('quiet', i, T + 60_000, T)).toBe('fresh')
    expect(m.size).toBe(20)
  })
  test('over its share a key forgets its oldest and refuses what is at or below them (horizon), later values are accepted', () => {
    const m = new PartitionedReplayMemory(limits({ perPartition: 2 }))
    expect(m.remember('a', 1, T + 60_000, T)).toBe('fresh')
    expect(m.remember('a', 2, T + 61_000, T)).toBe('fresh')
    expect(m.remember('a', 3, T + 61_000, T)).toBe('fresh') // forgets 1: horizon T + 60 000
    expect(m.remember('a', 1, T + 60_000, T)).toEqual({ horizon: T + 60_000 }) // the forgotten one cannot come back
    expect(m.remember('a', 4, T + 61_000, T)).toBe('fresh') // forgets 2: horizon T + 61 000
    expect(m.remember('a', 5, T + 61_000, T)).toEqual({ horizon: T + 61_000 })
    expect(m.remember('a', 6, T + 62_000, T + 1000)).toBe('fresh')
    expect(m.size).toBe(2)
  })
  test('the total stays bounded: room for a new key comes from the fullest key, whose replays stay refused', () => {
    const m = new PartitionedReplayMemory(limits({ perPartition: 100, total: 150 }))
    for (let i = 0; i < 100; i++) m.remember('big', i, T + 60_000 + i, T)
    for (let i = 0; i < 50; i++) m.remember('mid', i, T + 60_000, T)
    for (let i = 0; i < 20; i++) expect(m.remember(`new-${i}`, 0, T + 60_000, T)).toBe('fresh')
    expect(m.size).toBe(150)
    expect(m.remember('mid', 0, T + 60_000, T)).toBe('replayed') // mid kept all of its own
    expect(m.remember('big', 0, T + 60_000, T)).toEqual({ horizon: T + 60_019 })
    expect(m.remember('big', 99, T + 60_099, T)).toBe('replayed')
  })
  test('the number of keys stays bounded: the least recently used key goes, and its values stay refused', () => {
    const m = new PartitionedReplayMemory(limits({ partitions: 3 }))
    m.remember('old', 1, T + 50_000, T)
    for (const k of ['b', 'c', 'd']) m.remember(k, 1, T + 60_000, T + 1000)
    expect(m.partitionCount).toBe(3)
    expect(m.remember('old', 1, T + 50_000, T + 2000)).toEqual({ horizon: T + 50_000 })
    // a fresh value of a new key (made after the dropped key's last one) is accepted
    expect(m.remember('e', 1, T + 61_000, T + 2000)).toBe('fresh')
    expect(m.partitionCount).toBe(3)
  })
  test('expired entries and spent keys are swept, so memory follows the load back down', () => {
    const m = new PartitionedReplayMemory(limits({ sweepEveryMs: 1000 }))
    for (let i = 0; i < 50; i++) m.remember(`k${i}`, i, T + 60_000, T)
    expect(m.remember('late', 1, T + 200_000, T + 100_000)).toBe('fresh')
    expect({ size: m.size, keys: m.partitionCount }).toEqual({ size: 1, keys: 1 })
  })
  test('forget gives back an entry', () => {
    const m = new PartitionedReplayMemory(limits())
    m.remember('a', 1, T + 60_000, T)
    m.forget('a', 1)
    expect(m.remember('a', 1, T + 60_000, T)).toBe('fresh')
    expect(m.size).toBe(1)
  })
})
