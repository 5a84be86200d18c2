// A collection after every so many bytes streamed (lib/collect-every.ts).

import { describe, expect, test } from 'bun:test'
import { collectEvery } from '../../src/lib/collect-every.ts'

describe('collectEvery', () => {
  test('collects each time the bytes counted pass the threshold, and not before', () => {
    let collections = 0
    const note = collectEvery(100, () => {
      collections++
    })
    note(60)
    expect(collections).toBe(0)
    note(60)
    expect(collections).toBe(1)
    note(99)
    expect(collections).toBe(1)
    note(1)
    expect(collections).toBe(2)
  })
})
