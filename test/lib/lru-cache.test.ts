import { describe, expect, test } from 'bun:test'
import { LruCache } from '../../src/lib/lru-cache.ts'

const keys = (c: LruCache<string, number>, all: readonly string[]) => all.filter(k => c.get(k, 0) !== undefined)

describe('LruCache', () => {
  test('the least recently used entry goes first, a hit making an entry the most recent', () => {
    const c = new LruCache<string, number>(3)
    c.set('a', 1)
    c.set('b', 2)
    c.set('c', 3)
    expect(c.get('a', 0)).toBe(1) // a is now the newest: b goes next
    c.set('d', 4)
    expect(keys(c, ['a', 'b', 'c', 'd'])).toEqual(['a', 'c', 'd'])
  })

  test('hits on the newest key (left where it is) keep the order; a hit on an older one still moves it', () => {
    const c = new LruCache<string, number>(3)
    c.set('a', 1)
    c.set('b', 2)
    // the same key again and again, each time a new string of the same value, as a request's header is
    for (let i = 0; i < 5; i++) expect(c.memo(['b'].join(''), () => 0)).toBe(2)
    c.set('c', 3)
    expect(c.memo('a', () => 0)).toBe(1) // a moves past b and c
    expect(c.memo('a', () => 0)).toBe(1)
    c.set('d', 4) // b is the oldest now
    expect(c.get('b', 0)).toBeUndefined()
    expect(c.get('c', 0)).toBe(3)
    c.set('e', 5) // after the hit on c, a is the oldest
    expect(c.get('a', 0)).toBeUndefined()
    expect(c.get('c', 0)).toBe(3)
  })

  test('the newest key deleted, expired or cleared is no longer taken for the newest', () => {
    const c = new LruCache<string, number>(2)
    c.set('a', 1)
    c.set('b', 2)
    c.delete('b')
    c.set('c', 3)
    expect(c.get('a', 0)).toBe(1) // moved: c is the oldest now
    c.set('d', 4)
    expect(c.get('c', 0)).toBeUndefined()
    c.set('x', 9, 10)
    expect(c.get('x', 10)).toBeUndefined() // expired, gone
    c.set('y', 8)
    expect(c.get('x', 0)).toBeUndefined()
    c.clear()
    expect(c.size).toBe(0)
    c.set('p', 1)
    c.set('q', 2)
    expect(c.get('p', 0)).toBe(1)
    c.set('r', 3)
    expect(c.get('q', 0)).toBeUndefined()
  })

  test('weights: the least recently used go until the rest fit', () => {
    const c = new LruCache<string, number>(10, { maxWeight: 10 })
    c.set('a', 1, undefined, 4)
    c.set('b', 2, undefined, 4)
    expect(c.get('a', 0)).toBe(1)
    c.set('c', 3, undefined, 4)
    expect(c.get('b', 0)).toBeUndefined()
    expect(c.weight).toBe(8)
  })
})
