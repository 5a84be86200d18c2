// The typed-array map under each key of a replay memory answers as a Map would, in the same order, whatever the
// mix of operations (its bytes: replay-heap.slow.test.ts).

import { describe, expect, test } from 'bun:test'
import { OrderedNumberMap } from '../../src/lib/ordered-number-map.ts'

/** A small deterministic generator (mulberry32): the same operations every run. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const contents = (m: Iterable<[number, number]>) => [...m]

describe('OrderedNumberMap', () => {
  test('set, get, delete, shift and first as a Map, in insertion order', () => {
    const m = new OrderedNumberMap()
    expect(m.first()).toBeUndefined()
    expect(m.shift()).toBeUndefined()
    m.set(5, 50)
    m.set(2 ** 48 - 1, 1)
    m.set(7, 70)
    m.set(5, 55) // kept in place, as Map.set
    expect(contents(m)).toEqual([
      [5, 55],
      [2 ** 48 - 1, 1],
      [7, 70],
    ])
    expect(m.get(2 ** 48 - 1)).toBe(1)
    expect(m.get(6)).toBeUndefined()
    expect(m.delete(2 ** 48 - 1)).toBe(true)
    expect(m.delete(2 ** 48 - 1)).toBe(false)
    expect(m.first()).toEqual([5, 55])
    expect(m.shift()).toBe(55)
    expect(m.first()).toEqual([7, 70])
    expect(m.size).toBe(1)
  })

  test('removeUpTo takes every value at or below the limit and keeps the order of the rest', () => {
    const m = new OrderedNumberMap()
    for (let i = 0; i < 100; i++) m.set(i * 7919, i % 10)
    expect(m.removeUpTo(4)).toBe(50)
    expect(m.size).toBe(50)
    expect(contents(m).map(([, v]) => v)).toEqual(Array.from({ length: 100 }, (_, i) => i % 10).filter(v => v > 4))
    expect(m.removeUpTo(9)).toBe(50)
    expect(m.size).toBe(0)
    m.set(1, 1)
    expect(contents(m)).toEqual([[1, 1]])
  })

  for (const [keys, ops] of [
    [6, 2_000], // a few keys: the slots scanned, no index
    [40, 20_000], // colliding low bits, the index grown and emptied again
    [5_000, 60_000], // many keys: growth, holes, compaction
  ] as const) {
    test(`${ops.toLocaleString('en')} random operations over ${keys.toLocaleString('en')} keys answer as a Map does`, () => {
      const next = random(keys)
      const m = new OrderedNumberMap()
      const ref = new Map<number, number>()
      // keys whose low 32 bits collide often (the index's hash), and large ones
      const keyOf = () => {
        const k = Math.floor(next() * keys)
        return k % 3 === 0 ? k * 2 ** 32 + 17 : k
      }
      for (let i = 0; i < ops; i++) {
        const r = next()
        if (r < 0.45) {
          const k = keyOf()
          const v = Math.floor(next() * 1000)
          m.set(k, v)
          ref.set(k, v)
        } else if (r < 0.65) {
          const k = keyOf()
          expect(m.get(k)).toBe(ref.get(k))
        } else if (r < 0.85) {
          const k = keyOf()
          expect(m.delete(k)).toBe(ref.delete(k))
        } else if (r < 0.97) {
          const first = ref.entries().next()
          expect(m.first()).toEqual(first.done ? undefined : first.value)
          expect(m.shift()).toBe(first.done ? undefined : first.value[1])
          if (!first.done) ref.delete(first.value[0])
        } else {
          const limit = Math.floor(next() * 200)
          let removed = 0
          for (const [k, v] of ref)
            if (v <= limit) {
              ref.delete(k)
              removed++
            }
          expect(m.removeUpTo(limit)).toBe(removed)
        }
        expect(m.size).toBe(ref.size)
        if (i % 97 === 0) expect(contents(m)).toEqual([...ref])
      }
      expect(contents(m)).toEqual([...ref])
    })
  }
})
