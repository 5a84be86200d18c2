import { describe, expect, test } from 'bun:test'
import { makeKeyedSerialQueue, makeSerialQueue } from '../../src/lib/serial-queue.ts'

const step =
  (log: string[], name: string, ms: number, fail = false) =>
  async () => {
    log.push(`${name} start`)
    await Bun.sleep(ms)
    log.push(`${name} end`)
    if (fail) throw new Error(name)
    return name
  }

describe('serial queues', () => {
  test('one queue runs steps in call order; a failed step does not stop the next', async () => {
    const log: string[] = []
    const q = makeSerialQueue()
    const a = q(step(log, 'a', 10, true))
    const b = q(step(log, 'b', 1))
    await expect(a).rejects.toThrow('a')
    expect(await b).toBe('b')
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end'])
  })

  test('a keyed queue runs one key in order, other keys side by side, and goes on after a failure', async () => {
    const log: string[] = []
    const q = makeKeyedSerialQueue()
    const a1 = q('a', step(log, 'a1', 20, true))
    const b1 = q('b', step(log, 'b1', 1))
    const a2 = q('a', step(log, 'a2', 1))
    expect(await b1).toBe('b1')
    // b1 did not wait for a1, which is still running
    expect(log).not.toContain('a1 end')
    await expect(a1).rejects.toThrow('a1')
    expect(await a2).toBe('a2')
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'))
    // once settled, a key starts afresh
    expect(await q('a', step(log, 'a3', 1))).toBe('a3')
  })
})
