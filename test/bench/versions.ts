// Versions benchmark (issue 36): what keeping versions costs a write (the same bytes written again, and a real edit),
// a TimeMap of 10,000 versions to its first byte,
// and a 100 MB memento streamed with the pod's RSS sampled. Run alone with `bun test/bench/versions.ts`.

import { startPod, type RunningPod } from '../e2e/start-server.ts'
import { seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'
import { cpuSeconds } from './process-cpu.ts'
import { generatedBody, MIB, rssMb, sampleRss } from '../e2e/large-bodies.ts'
import { runLoad } from './load.ts'
import { openStore } from '../../src/store/open-store.ts'
import { getMeta, readKeys } from '../../src/store/resources.ts'
import { versionOps } from '../../src/store/versions.ts'

/** Issue 36: a PUT with versions on runs at this fraction of one with `--keep-versions-days 0` or better. */
export const PUT_AIM = 0.9
/** Issue 36: a TimeMap of 10,000 versions starts answering within this. */
export const TIMEMAP_FIRST_BYTE_AIM_MS = 50
const TIMEMAP_VERSIONS = 10_000
const MEMENTO_MIB = 100
const PUT_ROUNDS = 3
const DOC_1KB = `<#it> <http://schema.org/text> "${'x'.repeat(1000)}".\n`
/** The n-th edit of the document: as long as DOC_1KB, one statement, a different literal each time. */
const editOf = (n: number) => `<#it> <http://schema.org/text> "${String(n).padStart(1000, 'y')}".\n`

/** PUTs per second and the pod's CPU time per PUT (all its threads: LevelDB's compactions too), less noisy than req/s on a shared machine. */
export interface PutMeasure {
  readonly rps: number
  readonly cpuUsPerPut: number
}

export interface VersionsBenchResult {
  /** The same 1 KB written again and again: with versions each keeps who wrote it, and names the state after it (sameAs). */
  readonly putSameVersions: PutMeasure
  readonly putSameNone: PutMeasure
  /** A different 1 KB each time: each version keeps the statements replaced, the cost of keeping a version. */
  readonly putEditVersions: PutMeasure
  readonly putEditNone: PutMeasure
  readonly timeMapFirstByteMs: number
  readonly timeMapMs: number
  readonly mementoMbps: number
  readonly idleRssMb: number
  readonly mementoPeakRssMb: number
}

const startPublic = (keepDays: number, more?: (dataDir: string, baseUrl: string) => Promise<void>) =>
  startPod({
    extraArgs: ['--log-level', 'warn', '--keep-versions-days', String(keepDays)],
    seed: async (dir, base) => {
      await seedPublicContainer(dir, base, '/v/', ['Read', 'Write'])
      await more?.(dir, base)
    },
  })

let edits = 0
/**
 * PUTs of 1 KB documents over a small set of names, so most are overwrites that keep a version: the very same bytes
 * each time, or (`edit`) a different literal each time.
 */
async function putRps(pod: RunningPod, durationMs: number, edit: boolean): Promise<PutMeasure> {
  const op = async (i: number) => {
    const body = edit ? editOf(edits++) : DOC_1KB
    const res = await fetch(`${pod.baseUrl}/v/doc${i % 50}.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body })
    await res.arrayBuffer()
    return res.status === 201 || res.status === 205 || res.status === 204 ? undefined : `status ${res.status}`
  }
  await runLoad(op, { concurrency: 8, durationMs: 500, warmupMs: 0 })
  const cpu0 = cpuSeconds(pod.proc.pid)
  const r = await runLoad(op, { concurrency: 8, durationMs, warmupMs: 0 })
  const cpu = cpuSeconds(pod.proc.pid) - cpu0
  if (r.failures > 0) throw new Error(`PUT failed: ${r.firstFailure}`)
  return { rps: r.rps, cpuUsPerPut: (cpu / r.requests) * 1e6 }
}

/** The best of each measure: the most PUTs a second, the least CPU per PUT (a neighbour's burst only ever worsens them). */
const best = (a: PutMeasure | undefined, b: PutMeasure): PutMeasure =>
  a === undefined ? b : { rps: Math.max(a.rps, b.rps), cpuUsPerPut: Math.min(a.cpuUsPerPut, b.cpuUsPerPut) }

/**
 * 10,000 versions of one document, written through the store API in batches of 1,000 (10,000 HTTP PUTs would take
 * minutes), 100 ms apart within the last half hour: the sweep at start keeps every version of the last hour.
 */
async function seedManyVersions(dataDir: string, baseUrl: string): Promise<void> {
  const store = await openStore(dataDir, { keepVersions: true })
  try {
    const t0 = Date.now() - TIMEMAP_VERSIONS * 100 - 60_000
    await writeTurtle(store, baseUrl, '/v/many.ttl', DOC_1KB, t0)
    const meta = (await getMeta(store, '/v/many.ttl'))!
    const keys = await readKeys(store, baseUrl, '/v/many.ttl')
    for (let i = 0; i < TIMEMAP_VERSIONS; i += 1000) {
      const ops = []
      for (let j = i; j < i + 1000; j++) {
        const from = t0 + j * 100
        ops.push(...versionOps(store, baseUrl, '/v/many.ttl', { ...meta, modified: from }, keys, 'update', from + 100))
      }
      await store.commit(ops)
    }
  } finally {
    await store.close()
  }
}

/** Time to the response's first body chunk, and to its end; the best of `runs` (the machine is shared). */
async function timeMapTiming(pod: RunningPod, runs = 5): Promise<{ firstByteMs: number; totalMs: number; mementos: number }> {
  let firstByteMs = Infinity
  let totalMs = Infinity
  let mementos = 0
  for (let r = 0; r < runs; r++) {
    const started = performance.now()
    const res = await fetch(`${pod.baseUrl}/v/many.ttl?ext=timemap`)
    if (res.status !== 200) throw new Error(`TimeMap: ${res.status} ${await res.text()}`)
    const reader = res.body!.getReader()
    let text = ''
    let first = true
    for (;;) {
      const { value, done } = await reader.read()
      if (first) {
        firstByteMs = Math.min(firstByteMs, performance.now() - started)
        first = false
      }
      if (done) break
      text += new TextDecoder().decode(value)
    }
    totalMs = Math.min(totalMs, performance.now() - started)
    mementos = text.split('?version=').length - 1
  }
  return { firstByteMs, totalMs, mementos }
}

/** PUTs a 100 MB file, overwrites it (its bytes become a version), then GETs that memento to its end, RSS sampled. */
async function mementoRead(pod: RunningPod): Promise<{ mbps: number; idleRssMb: number; peakRssMb: number }> {
  const url = `${pod.baseUrl}/v/big.bin`
  const bytes = MEMENTO_MIB * MIB
  const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: generatedBody(bytes, { hashed: false }).stream })
  if (put.status !== 201) throw new Error(`PUT big.bin: ${put.status}`)
  const replace = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: 'small' })
  if (replace.status !== 204 && replace.status !== 205) throw new Error(`PUT big.bin again: ${replace.status}`)
  const map = await (await fetch(`${url}?ext=timemap`)).text()
  const memento = /<([^>]+\?version=\d+)>/.exec(map)?.[1]
  if (!memento) throw new Error(`no memento in the TimeMap: ${map}`)
  await Bun.sleep(2000)
  const idleRssMb = rssMb(pod.proc.pid)
  const rss = sampleRss(pod.proc.pid)
  const started = performance.now()
  const res = await fetch(memento)
  let size = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) size += chunk.byteLength
  const ms = performance.now() - started
  const peakRssMb = rss.stop()
  if (res.status !== 200 || size !== bytes) throw new Error(`memento: ${res.status}, ${size} bytes of ${bytes}`)
  return { mbps: bytes / MIB / (ms / 1000), idleRssMb, peakRssMb }
}

const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-')

export async function benchVersions(opts: { print?: boolean; durationMs?: number } = {}): Promise<VersionsBenchResult> {
  const durationMs = opts.durationMs ?? 5000
  // Both pods run at once and take turns, the best of each kept: the machine is shared, and a neighbour's burst
  // would otherwise decide the ratio.
  // The two PUT pods differ only in --keep-versions-days: the 10,000 seeded versions of the TimeMap measure live in a
  // third pod, started after, so the versions pod's database is no bigger than the other's but for what its PUTs keep.
  const none = await startPublic(0)
  const pod = await startPublic(30).catch(async err => {
    await none.dispose()
    throw err
  })
  let many: RunningPod | undefined
  try {
    let sameNone: PutMeasure | undefined
    let sameVersions: PutMeasure | undefined
    let editNone: PutMeasure | undefined
    let editVersions: PutMeasure | undefined
    for (let round = 0; round < PUT_ROUNDS; round++) {
      sameNone = best(sameNone, await putRps(none, durationMs, false))
      sameVersions = best(sameVersions, await putRps(pod, durationMs, false))
      editNone = best(editNone, await putRps(none, durationMs, true))
      editVersions = best(editVersions, await putRps(pod, durationMs, true))
    }
    await none.dispose()
    await pod.dispose()
    many = await startPublic(30, seedManyVersions)
    const timeMap = await timeMapTiming(many)
    if (timeMap.mementos < TIMEMAP_VERSIONS) throw new Error(`the TimeMap listed ${timeMap.mementos} mementos, not ${TIMEMAP_VERSIONS}`)
    const memento = await mementoRead(many)
    const result: VersionsBenchResult = {
      putSameVersions: sameVersions!,
      putSameNone: sameNone!,
      putEditVersions: editVersions!,
      putEditNone: editNone!,
      timeMapFirstByteMs: timeMap.firstByteMs,
      timeMapMs: timeMap.totalMs,
      mementoMbps: memento.mbps,
      idleRssMb: memento.idleRssMb,
      mementoPeakRssMb: memento.peakRssMb,
    }
    if (opts.print !== false) {
      const putLine = (what: string, on: PutMeasure, off: PutMeasure) => {
        const ratio = on.rps / off.rps
        console.log(
          `versions: PUT 1 KB, ${what}: with versions ${fmt(on.rps, 0)} req/s (${fmt(on.cpuUsPerPut, 0)} µs CPU per PUT), ` +
            `with --keep-versions-days 0 ${fmt(off.rps, 0)} req/s (${fmt(off.cpuUsPerPut, 0)} µs): ` +
            `${fmt(ratio * 100)}% of the PUTs a second (aim ≥ ${PUT_AIM * 100}%: ${ratio >= PUT_AIM ? 'met' : 'not met'}), CPU ${fmt((on.cpuUsPerPut / off.cpuUsPerPut) * 100)}%`,
        )
      }
      putLine('the same bytes each time (each version names the state after it, no copy)', result.putSameVersions, result.putSameNone)
      putLine('a real edit each time (each version keeps the statements replaced: the cost of keeping a version)', result.putEditVersions, result.putEditNone)
      console.log(
        `versions: TimeMap of ${TIMEMAP_VERSIONS} versions, first byte ${fmt(timeMap.firstByteMs)} ms (aim ≤ ${TIMEMAP_FIRST_BYTE_AIM_MS} ms: ` +
          `${timeMap.firstByteMs <= TIMEMAP_FIRST_BYTE_AIM_MS ? 'met' : 'not met'}), whole ${fmt(timeMap.totalMs)} ms`,
      )
      console.log(
        `versions: a ${MEMENTO_MIB} MB memento read at ${fmt(memento.mbps, 0)} MB/s; pod RSS ${fmt(memento.idleRssMb)} MB before, peak ${fmt(memento.peakRssMb)} MB ` +
          `(+${fmt(memento.peakRssMb - memento.idleRssMb)} MB: it streams)`,
      )
    }
    return result
  } finally {
    await none.dispose()
    await pod.dispose()
    await many?.dispose()
  }
}

if (import.meta.main) await benchVersions()
