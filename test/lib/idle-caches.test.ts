// Caches an idle pod empties (lib/idle-caches.ts): registered ones are cleared, and a registration never keeps a cache alive.

import { describe, expect, test } from 'bun:test'
import { forgetIdleCaches, forgetWhenIdle } from '../../src/lib/idle-caches.ts'
import { LruCache } from '../../src/lib/lru-cache.ts'

describe('idle caches', () => {
  test('forgetIdleCaches empties every registered cache and leaves the others', () => {
    const registered = forgetWhenIdle(new LruCache<string, number>(10))
    const other = new LruCache<string, number>(10)
    registered.set('a', 1)
    other.set('a', 1)
    expect(forgetIdleCaches()).toBeGreaterThanOrEqual(1)
    expect(registered.get('a')).toBeUndefined()
    expect(other.get('a')).toBe(1)
  })

  test('the registry holds its caches weakly', () => {
    let cleared = 0
    const register = () => {
      forgetWhenIdle({ clear: () => cleared++ })
    }
    // Many, so a stray pointer on the stack (the collector is conservative there) cannot keep them all.
    for (let i = 0; i < 50; i++) register()
    Bun.gc(true)
    forgetIdleCaches()
    expect(cleared).toBeLessThan(50)
  })
})
