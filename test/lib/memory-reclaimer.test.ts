// Issue 9 "Memory": the pod gives back what a burst of requests left behind once it goes quiet.

import { describe, expect, test } from 'bun:test'
import { startMemoryReclaimer, trimNativeHeap, type ReclaimSteps } from '../../src/lib/memory-reclaimer.ts'

/** Polls until `done` or the bound (a count, never a timing assertion). */
async function waitFor(done: () => boolean, boundMs = 5000) {
  const end = Date.now() + boundMs
  while (!done() && Date.now() < end) await Bun.sleep(5)
}

/** Records what the reclaimer did, in order. */
function recorder(): ReclaimSteps & { log: string[] } {
  const log: string[] = []
  return {
    log,
    collect: idle => {
      log.push(idle ? 'collect idle' : 'collect busy')
    },
    trim: () => {
      log.push('trim')
    },
  }
}

describe('memory reclaimer', () => {
  test('after a burst goes quiet: an idle collection and the trim, both again once it stayed quiet, then nothing while nothing happens', async () => {
    const steps = recorder()
    const r = startMemoryReclaimer({ quietMs: 20, steps })
    try {
      for (let i = 0; i < 100; i++) r.noteRequest()
      await waitFor(() => steps.log.length >= 4)
      await Bun.sleep(300)
      expect(steps.log).toEqual(['collect idle', 'trim', 'collect idle', 'trim'])
      expect(r.reclaims).toBe(2)
    } finally {
      r.stop()
    }
  })

  test('once quiet for forgetAfterMs after a burst: empties the idle caches, then collects and trims a third time, once', async () => {
    const steps = { ...recorder(), forget: () => {} }
    steps.forget = () => {
      steps.log.push('forget')
    }
    const r = startMemoryReclaimer({ quietMs: 20, forgetAfterMs: 200, steps })
    try {
      for (let i = 0; i < 100; i++) r.noteRequest()
      await waitFor(() => steps.log.length >= 7)
      await Bun.sleep(300)
      expect(steps.log).toEqual(['collect idle', 'trim', 'collect idle', 'trim', 'forget', 'collect idle', 'trim'])
      expect(r.reclaims).toBe(3)
    } finally {
      r.stop()
    }
  })

  test("at the forgetting the store's writes are flushed, and the native heap trimmed once the flush is done, whenever that is", async () => {
    const steps = { ...recorder(), forget: () => {} }
    steps.forget = () => {
      steps.log.push('forget')
    }
    let written: () => void = () => {}
    const flush = () => {
      steps.log.push('flush')
      return new Promise<void>(resolve => {
        written = resolve
      })
    }
    const r = startMemoryReclaimer({ quietMs: 20, forgetAfterMs: 200, steps, flush })
    try {
      for (let i = 0; i < 100; i++) r.noteRequest()
      await waitFor(() => steps.log.length >= 8)
      await Bun.sleep(100)
      // The tick's own trim comes; the flush's is still due.
      expect(steps.log).toEqual(['collect idle', 'trim', 'collect idle', 'trim', 'forget', 'collect idle', 'flush', 'trim'])
      written()
      await waitFor(() => steps.log.length >= 9)
      expect(steps.log.slice(8)).toEqual(['trim'])
      await Bun.sleep(100)
      expect(steps.log.filter(s => s === 'flush')).toEqual(['flush'])
    } finally {
      r.stop()
    }
  })

  test('a request before forgetAfterMs of quiet puts the forgetting off', async () => {
    const steps = { ...recorder(), forget: () => {} }
    steps.forget = () => {
      steps.log.push('forget')
    }
    const r = startMemoryReclaimer({ quietMs: 20, forgetAfterMs: 400, steps })
    try {
      r.noteRequest()
      // Well before the 400 ms: each request restarts the quiet stretch.
      for (let i = 0; i < 6; i++) {
        await Bun.sleep(100)
        r.noteRequest()
      }
      expect(steps.log).not.toContain('forget')
      await waitFor(() => steps.log.includes('forget'))
      expect(steps.log).toContain('forget')
    } finally {
      r.stop()
    }
  })

  test('does nothing on a pod that served no request', async () => {
    const steps = recorder()
    const r = startMemoryReclaimer({ quietMs: 10, steps })
    await Bun.sleep(150)
    r.stop()
    expect(steps.log).toEqual([])
  })

  test('under steady load (never quiet) still collects and trims now and then, without the idle step', async () => {
    const steps = recorder()
    const r = startMemoryReclaimer({ quietMs: 20, busyEveryMs: 100, steps })
    let busy = true
    const load = (async () => {
      while (busy) {
        r.noteRequest()
        await Bun.sleep(2)
      }
    })()
    try {
      // A stalled event loop can make a tick look quiet; what matters is that busy collections happen.
      await waitFor(() => steps.log.filter(s => s === 'collect busy').length >= 2)
      const busyAt = steps.log.indexOf('collect busy')
      expect(busyAt).toBeGreaterThanOrEqual(0)
      expect(steps.log[busyAt + 1]).toBe('trim')
    } finally {
      busy = false
      await load
      r.stop()
    }
  })

  test('trimming the native heap is safe to call on any platform', () => {
    expect(() => {
      trimNativeHeap()
      trimNativeHeap()
    }).not.toThrow()
  })
})
