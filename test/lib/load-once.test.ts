import { describe, expect, test } from 'bun:test'
import { loadOnce } from '../../src/lib/load-once.ts'

describe('loadOnce', () => {
  test('loads with the first use and keeps what it loaded', async () => {
    let loads = 0
    const get = loadOnce(async () => ++loads)
    expect(loads).toBe(0)
    expect(await Promise.all([get(), get()])).toEqual([1, 1])
    expect(await get()).toBe(1)
    expect(loads).toBe(1)
  })

  test('a failed load rejects with its error, and the next use loads again', async () => {
    let loads = 0
    const get = loadOnce(async () => {
      if (++loads === 1) throw new Error('the module is missing')
      return 'loaded'
    })
    await expect(get()).rejects.toThrow('the module is missing')
    await Bun.sleep(0)
    expect(await get()).toBe('loaded')
    expect(loads).toBe(2)
  })

  test('a load that throws before its promise rejects the same way', async () => {
    const get = loadOnce((): Promise<number> => {
      throw new Error('no such file')
    })
    await expect(get()).rejects.toThrow('no such file')
  })
})
