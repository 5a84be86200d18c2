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
  test("a stranger future-dating its keys' values (iat ahead by the skew) never refuses a new key's fresh value", () => {
    const m = new PartitionedReplayMemory(limits({ partitions: 3 }))
    for (let i = 0; i < 4; i++) expect(m.remember(`x${i}`, 1, T + 120_001, T, 'X')).toBe('fresh') // iat = now + 60 s
    // a new client of another issuer (or the same one) whose first proof was made a second ago
    expect(m.remember('honest', 1, T + 59_001, T + 1000, 'Y')).toBe('fresh')
    expect(m.remember('x-new', 1, T + 59_001, T + 1000, 'X')).toBe('fresh')
    // the dropped future-dated key's own values stay refused, its horizon not clamped to the drop
    expect(m.remember('x0', 1, T + 120_001, T + 1000, 'X')).toEqual({ horizon: T + 120_001 })
  })
  test("9,000 keys churned by issuer X: a new key of issuer Y is accepted, and X's first key's proof replayed after its drop is still refused", () => {
    const m = new PartitionedReplayMemory(limits({ partitions: 8192 }))
    expect(m.remember('x-first', 7, T + 60_001, T, 'X')).toBe('fresh')
    for (let i = 0; i < 9000; i++) expect(m.remember(`x${i}`, 1, T + 60_001 + i, T + i / 1000, 'X')).toBe('fresh')
    expect(m.partitionCount).toBe(8192)
    expect(m.remember('y', 1, T + 59_001, T + 9000, 'Y')).toBe('fresh')
    expect(m.remember('x-first', 7, T + 60_001, T + 9000, 'X')).toEqual({ horizon: T + 60_001 })
    expect(m.remember('x-first', 7, T + 60_001, T + 9000, 'Y')).toEqual({ horizon: T + 60_001 }) // under any group
    expect(m.droppedCount).toBe(810)
  })
  test("dropped keys full of live horizons: only the issuer holding most of them is refused new keys (429), another's are accepted", () => {
    const m = new PartitionedReplayMemory(limits({ partitions: 10, dropped: 50 }))
    expect(m.remember('x-first', 7, T + 60_001, T, 'X')).toBe('fresh')
    let refused = 0
    for (let i = 0; i < 1000; i++) if (m.remember(`x${i}`, 1, T + 60_001, T, 'X') !== 'fresh') refused++
    expect(refused).toBe(1000 - 59)
    expect(m.remember('x-late', 1, T + 60_001, T, 'X')).toEqual({ keysFull: true, retryAtMs: T + 60_001 })
    for (let i = 0; i < 20; i++) expect(m.remember(`y${i}`, 1, T + 59_001, T, 'Y')).toBe('fresh')
    expect(m.droppedCount).toBe(50)
    // X's horizons folded into X's floor: X's first proof, replayed, is still refused
    expect(m.remember('x-first', 7, T + 60_001, T, 'X')).toEqual({ horizon: T + 60_001 })
    // once the horizons pass, X's new keys are accepted again
    expect(m.remember('x-later', 1, T + 120_001, T + 60_001, 'X')).toBe('fresh')
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
    m.forget('a', 1, T)
    expect(m.remember('a', 1, T + 60_000, T)).toBe('fresh')
    expect(m.size).toBe(1)
  })
})
