// Versions benchmark (issue 36): what keeping versions costs a write, a TimeMap of 10,000 versions to its first byte,
// and a 100 MB memento streamed with the pod's RSS sampled. Run alone with `bun test/bench/versions.ts`.

import { startPod, type RunningPod } from '../e2e/start-server.ts'
import { seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'
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

export interface VersionsBenchResult {
  readonly putRpsVersions: number
  readonly putRpsNone: number
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

/** PUTs of 1 KB documents over a small set of names, so most are overwrites that keep a version. */
async function putRps(pod: RunningPod, durationMs: number): Promise<number> {
  const op = async (i: number) => {
    const res = await fetch(`${pod.baseUrl}/v/doc${i % 50}.ttl`, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: DOC_1KB })
    await res.arrayBuffer()
    return res.status === 201 || res.status === 205 || res.status === 204 ? undefined : `status ${res.status}`
  }
  const r = await runLoad(op, { concurrency: 8, durationMs, warmupMs: 500 })
  if (r.failures > 0) throw new Error(`PUT failed: ${r.firstFailure}`)
  return r.rps
}

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
  const none = await startPublic(0)
  const pod = await startPublic(30, seedManyVersions).catch(async err => {
    await none.dispose()
    throw err
  })
  try {
    let putRpsNone = 0
    let putRpsVersions = 0
    for (let round = 0; round < PUT_ROUNDS; round++) {
      putRpsNone = Math.max(putRpsNone, await putRps(none, durationMs))
      putRpsVersions = Math.max(putRpsVersions, await putRps(pod, durationMs))
    }
    await none.dispose()
    const timeMap = await timeMapTiming(pod)
    if (timeMap.mementos < TIMEMAP_VERSIONS) throw new Error(`the TimeMap listed ${timeMap.mementos} mementos, not ${TIMEMAP_VERSIONS}`)
    const memento = await mementoRead(pod)
    const result: VersionsBenchResult = {
      putRpsVersions,
      putRpsNone,
      timeMapFirstByteMs: timeMap.firstByteMs,
      timeMapMs: timeMap.totalMs,
      mementoMbps: memento.mbps,
      idleRssMb: memento.idleRssMb,
      mementoPeakRssMb: memento.peakRssMb,
    }
    if (opts.print !== false) {
      const ratio = putRpsVersions / putRpsNone
      console.log(
        `versions: PUT 1 KB with versions ${fmt(putRpsVersions, 0)} req/s, with --keep-versions-days 0 ${fmt(putRpsNone, 0)} req/s: ` +
          `${fmt(ratio * 100)}% (aim ≥ ${PUT_AIM * 100}%: ${ratio >= PUT_AIM ? 'met' : 'not met'})`,
      )
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
  }
}

if (import.meta.main) await benchVersions()
