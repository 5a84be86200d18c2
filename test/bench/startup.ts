// Startup time (issue 9 "Startup", issue 41 "Restart ≤ 150 ms"): from spawning `bun src/main.ts serve` until its
// first HTTP 200, on a fresh data directory and on a restart of the same one. Wall time, polled over loopback
// every 2 ms. The pod prints its start timeline (SOLOPOD_START_TIMELINE, src/lib/start-timeline.ts): the
// restart's steps, wall and CPU time since the process began, are printed as a split — the CPU time is what a
// loaded machine changes little. When `npm run build` has made dist/solopod (the executable a server runs;
// `npm test` builds it), the same is measured for it.

import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../e2e/start-server.ts'

const ROOT = join(import.meta.dir, '..', '..')
const SOURCE = [process.execPath, join(ROOT, 'src', 'main.ts')]
const BINARY = join(ROOT, 'dist', 'solopod')
/** Issue 9: under this, fresh and on restart. */
export const STARTUP_AIM_MS = 300
/** Issue 41: a restart to its first 200. */
export const RESTART_AIM_MS = 150
const GIVE_UP_MS = 15_000
const TIMELINE = /solopod: start timeline \(step wall-ms\/cpu-ms\): (.*)/

/** A step of the start: ms since the process began, wall and CPU. */
export type StartSteps = Record<string, { wallMs: number; cpuMs: number }>

export interface StartupTimes {
  readonly freshMs: number[]
  readonly restartMs: number[]
  /** The steps of each restart, as the pod printed them. */
  readonly restartSteps: StartSteps[]
}

export interface StartupResult extends StartupTimes {
  /** dist/solopod, when it was built. */
  readonly binary?: StartupTimes
}

function parseTimeline(printed: string): StartSteps {
  const [, steps] = TIMELINE.exec(printed) ?? []
  if (steps === undefined) throw new Error('the pod printed no start timeline')
  return Object.fromEntries(
    steps.split(', ').map(step => {
      const [name, times] = step.split(' ') as [string, string]
      const [wallMs, cpuMs] = times.split('/').map(Number) as [number, number]
      return [name, { wallMs, cpuMs }]
    }),
  )
}

/** One start: spawn, poll the discovery document until it answers 200, stop with SIGTERM; the ms to the first 200 and the pod's timeline. */
async function timeOneStart(command: readonly string[], dataDir: string, port: number): Promise<{ ms: number; steps: StartSteps }> {
  const started = performance.now()
  const proc = Bun.spawn([...command, 'serve', '--port', String(port), '--base-url', `http://localhost:${port}`, '--data', dataDir, '--log-level', 'warn'], {
    stdout: 'ignore',
    stderr: 'pipe',
    env: { ...process.env, SOLOPOD_START_TIMELINE: '1' },
  })
  const printed = new Response(proc.stderr).text()
  let ms: number | undefined
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`the pod exited with ${proc.exitCode} while starting: ${await printed}`)
      if (performance.now() - started > GIVE_UP_MS) throw new Error('the pod did not answer within 15 s')
      const res = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`).catch(() => undefined)
      if (res?.status === 200) {
        await res.arrayBuffer()
        ms = performance.now() - started
        break
      }
      await res?.arrayBuffer()
      await Bun.sleep(2)
    }
  } finally {
    proc.kill('SIGTERM')
    await proc.exited
  }
  return { ms, steps: parseTimeline(await printed) }
}

/** `runs` fresh starts (each on a new data directory), each followed by one restart of that directory. */
async function measureCommand(command: readonly string[], runs: number): Promise<StartupTimes> {
  const freshMs: number[] = []
  const restartMs: number[] = []
  const restartSteps: StartSteps[] = []
  for (let i = 0; i < runs; i++) {
    const scratch = mkdtempSync(join(tmpdir(), 'solopod-startup-'))
    try {
      const dataDir = join(scratch, 'data')
      const port = await freePort()
      freshMs.push((await timeOneStart(command, dataDir, port)).ms)
      const restart = await timeOneStart(command, dataDir, port)
      restartMs.push(restart.ms)
      restartSteps.push(restart.steps)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }
  return { freshMs, restartMs, restartSteps }
}

/** The source as `npm start` runs it, then dist/solopod when it is built. */
export async function measureStartup(runs: number): Promise<StartupResult> {
  const source = await measureCommand(SOURCE, runs)
  return existsSync(BINARY) ? { ...source, binary: await measureCommand([BINARY], runs) } : source
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)
export const minOf = (xs: readonly number[]) => sorted(xs)[0] ?? NaN
export const medianOf = (xs: readonly number[]) => {
  const s = sorted(xs)
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!
}

/** The steps printed in the split: Bun started with main.ts's own imports, the command's modules loaded, the store open, listening, the first response. */
const SPLIT: readonly [string, string][] = [
  ['parsed', 'entry parsed'],
  ['imported', 'command loaded'],
  ['store-open', 'store open'],
  ['listening', 'listening'],
  ['first-response', 'first response'],
]

function formatTimes(what: string, r: StartupTimes): string[] {
  const line = (name: string, xs: readonly number[], aim: string) => {
    const median = medianOf(xs)
    return `startup ${what}${name}: min ${minOf(xs).toFixed(0)} ms, median ${median.toFixed(0)} ms over ${xs.length} runs (aim < ${STARTUP_AIM_MS} ms: ${median < STARTUP_AIM_MS ? 'met' : 'not met'}${aim})`
  }
  const restartMedian = medianOf(r.restartMs)
  const split = SPLIT.map(([step, label]) => {
    const of = (pick: (s: StartSteps[string]) => number) => medianOf(r.restartSteps.flatMap(s => (s[step] ? [pick(s[step])] : [])))
    return `${label} ${of(s => s.wallMs).toFixed(0)}/${of(s => s.cpuMs).toFixed(0)}`
  })
  return [
    line('on a fresh data directory', r.freshMs, ''),
    line('on restart', r.restartMs, `; issue 41 ≤ ${RESTART_AIM_MS} ms: ${restartMedian <= RESTART_AIM_MS ? 'met' : 'not met'}`),
    `startup ${what}on restart, steps (median ms since the process began, wall/CPU): ${split.join(', ')}`,
  ]
}

export function formatStartup(r: StartupResult): string[] {
  return [...formatTimes('', r), ...(r.binary ? formatTimes('of dist/solopod ', r.binary) : [])]
}

if (import.meta.main) {
  const runs = Number(process.argv[2] ?? 5)
  for (const l of formatStartup(await measureStartup(runs))) console.log(l)
}
