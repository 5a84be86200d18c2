// Startup time (issue 9 "Startup"): from spawning `bun src/main.ts serve` until its first HTTP 200, on a
// fresh data directory and on a restart of the same one. Wall time, polled over loopback every 2 ms.

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../e2e/start-server.ts'

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')
/** Issue 9: under this, fresh and on restart. */
export const STARTUP_AIM_MS = 300
const GIVE_UP_MS = 15_000

export interface StartupResult {
  readonly freshMs: number[]
  readonly restartMs: number[]
}

/** One start: spawn, poll the discovery document until it answers 200, stop with SIGTERM; returns the ms to the first 200. */
async function timeOneStart(dataDir: string, port: number): Promise<number> {
  const started = performance.now()
  const proc = Bun.spawn(
    [process.execPath, MAIN, 'serve', '--port', String(port), '--base-url', `http://localhost:${port}`, '--data', dataDir, '--log-level', 'warn'],
    { stdout: 'ignore', stderr: 'ignore' },
  )
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`the pod exited with ${proc.exitCode} while starting`)
      if (performance.now() - started > GIVE_UP_MS) throw new Error('the pod did not answer within 15 s')
      const res = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`).catch(() => undefined)
      if (res?.status === 200) {
        await res.arrayBuffer()
        return performance.now() - started
      }
      await res?.arrayBuffer()
      await Bun.sleep(2)
    }
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
  }
}

/** `runs` fresh starts (each on a new data directory), each followed by one restart of that directory. */
export async function measureStartup(runs: number): Promise<StartupResult> {
  const freshMs: number[] = []
  const restartMs: number[] = []
  for (let i = 0; i < runs; i++) {
    const scratch = mkdtempSync(join(tmpdir(), 'solopod-startup-'))
    try {
      const dataDir = join(scratch, 'data')
      const port = await freePort()
      freshMs.push(await timeOneStart(dataDir, port))
      restartMs.push(await timeOneStart(dataDir, port))
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }
  return { freshMs, restartMs }
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)
export const minOf = (xs: readonly number[]) => sorted(xs)[0] ?? NaN
export const medianOf = (xs: readonly number[]) => {
  const s = sorted(xs)
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!
}

export function formatStartup(r: StartupResult): string[] {
  const line = (name: string, xs: readonly number[]) => {
    const median = medianOf(xs)
    return `startup ${name}: min ${minOf(xs).toFixed(0)} ms, median ${median.toFixed(0)} ms over ${xs.length} runs (aim < ${STARTUP_AIM_MS} ms: ${median < STARTUP_AIM_MS ? 'met' : 'not met'})`
  }
  return [line('on a fresh data directory', r.freshMs), line('on restart', r.restartMs)]
}

if (import.meta.main) {
  const runs = Number(process.argv[2] ?? 5)
  for (const l of formatStartup(await measureStartup(runs))) console.log(l)
}
