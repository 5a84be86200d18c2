// Live updates (issue 23 "Measures"), over loopback against a real pod: write → notification latency with 1, 100
// and 1,000 WebSocketChannel2023 subscribers on one document, the pod's RSS holding 10,000 open subscriptions
// against idle, and PUT throughput with 1,000 subscribers listening against none. Printed, never asserted.
// Subscriptions are anonymous, to a public container: each is one POST and one WebSocket from this process.
// Run alone with `bun test/bench/notifications.ts`, or call `benchNotifications()`.

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeTurtle, seedPublicContainer } from '../e2e/seed-store.ts'
import { rssMb } from '../e2e/large-bodies.ts'
import { startPod, type RunningPod } from '../e2e/start-server.ts'
import { httpOperation, runLoad, type LoadResult } from './load.ts'
import { median } from './median.ts'

/** Issue 23 aims. */
export const AIM_P99_MS = 20
export const AIM_RSS_MB = 50
export const AIM_PUT_RATIO = 0.8

const CONTAINER = '/live/'
export const HOT = `${CONTAINER}hot.ttl`
/** Documents the PUT workload rotates over (as the main PUT workload does), each with its share of the listeners. */
const PUT_DOCS = 200
const SUBSCRIBER_COUNTS = [1, 100, 1000] as const
/** Writes timed per subscriber count: one at a time, each waited for until every subscriber has it. */
const WRITES: Record<number, number> = { 1: 100, 100: 50, 1000: 30 }
const MANY = 10_000
const LISTENING = 1000
const PUT_CONCURRENCY = 50
const PUT_SECONDS = 2.5
/** Each way of the PUT ratio is run this many times, alternating, and the best kept (the disk is shared). */
const PUT_ROUNDS = 2
/**
 * The paired PUT measure (issue 41), printed beside the one above: one process of LISTENING subscribers stays open on
 * PAIRED_DOCS documents, and PUT c50 alternates, round by round with the order swapped, between those documents and
 * as many others nobody hears (seeded alike, in the same container, written only here); the median of the rounds'
 * ratios. A neighbour's burst then weighs on one round's pair, not on one arm's best.
 */
const PAIRED_ROUNDS = 10
const PAIRED_SECONDS = 1.5
const PAIRED_WARMUP_MS = 250
const PAIRED_DOCS = Array.from({ length: PUT_DOCS }, (_, i) => `${CONTAINER}paired-heard-${i}.ttl`)
const QUIET_DOCS = Array.from({ length: PUT_DOCS }, (_, i) => `${CONTAINER}paired-quiet-${i}.ttl`)
/** Subscriptions being opened at once (a POST then a WebSocket each). */
const OPENING = 64
/** Quiet time before RSS is read: the pod's reclaimer collects once it has been idle for 3 s. */
const SETTLE_MS = 4000

export interface LatencyResult {
  readonly subscribers: number
  readonly writes: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly maxMs: number
  readonly missing: number
  /** Messages that did not parse as a notification of the subscriber's topic. */
  readonly misread: number
  /** The PUT's own answer, from sending it: the pod tells its subscribers after answering (issue 41, third pass). */
  readonly answerP50Ms: number
  readonly answerP99Ms: number
}
export interface NotificationsResult {
  readonly latency: LatencyResult[]
  readonly idleRssMb: number
  readonly manyRssMb: number
  readonly openManyS: number
  readonly putNone: LoadResult
  readonly putListening: LoadResult
  /** The pod's CPU time (user + system) per PUT in each: what the listeners cost the pod itself, whatever this process spends receiving. */
  readonly cpuPerPutNoneMs: number
  readonly cpuPerPutListeningMs: number
  /**
   * PUT with the same listeners in a process of their own (notification-listeners.ts), its pod CPU per PUT and
   * deliveries: the generator's thread then does no receiving. The ratio of the aim is this one; the in-process
   * measure is printed beside it, as it was measured before.
   */
  readonly putListeningApart: LoadResult
  readonly cpuPerPutListeningApartMs: number
  /** The listeners' process's CPU per PUT meanwhile: on this box it shares the cores with the pod and the generator. */
  readonly listenersCpuPerPutMs: number
  readonly deliveredApart: number
  readonly expectedApart: number
  /** Notifications that reached the 1,000 listeners during their PUT runs, against the writes × listeners per document. */
  readonly delivered: number
  readonly expected: number
  /** The paired measure (PAIRED_ROUNDS above): each round's two arms, heard and unheard, with the listeners apart. */
  readonly paired: readonly PairedPutRound[]
  readonly pairedDelivered: number
  readonly pairedExpected: number
  /** Notifications of the PUT runs (every measure) that did not parse as one of the subscriber's own topic. */
  readonly misread: number
}

/** One round of the paired PUT measure: the same pod, the same listeners' process, in turn. */
export interface PairedPutRound {
  readonly heardRps: number
  readonly quietRps: number
  /** The pod's CPU ms per PUT in each arm. */
  readonly heardCpuMs: number
  readonly quietCpuMs: number
  /** The listeners' process's CPU ms per PUT heard. */
  readonly listenersCpuMs: number
}

/** Where requests go (127.0.0.1) and the pod's base URL (localhost), which topics are named with. */
interface Pod {
  readonly origin: string
  readonly baseUrl: string
}
interface Subscriber {
  readonly socket: WebSocket
  readonly closed: Promise<void>
}
type Arrival = (at: number) => void
/**
 * Where a subscriber's messages go: `on` for each, at its arrival; `misread` counts those that did not parse as a
 * notification of the subscriber's own topic.
 */
export interface Arrivals {
  on: Arrival
  misread: number
}

/**
 * `count` subscriptions, subscriber i to topics[i % topics.length]; every message a socket receives goes to `arrival`.
 * Each is parsed as a client would and checked to name the subscriber's topic, so a stand-in for 1,000 clients does
 * what a client does with a notification before it acts on it.
 */
export async function openSubscribers({ origin, baseUrl }: Pod, topics: readonly string[], count: number, arrival: Arrivals): Promise<Subscriber[]> {
  const out: Subscriber[] = new Array(count)
  let next = 0
  const one = async (i: number) => {
    const topic = baseUrl + topics[i % topics.length]
    const res = await fetch(`${origin}/.notifications/WebSocketChannel2023/`, {
      method: 'POST',
      headers: { 'content-type': 'application/ld+json' },
      body: JSON.stringify({
        '@context': ['https://www.w3.org/ns/solid/notification/v1'],
        type: 'WebSocketChannel2023',
        topic,
      }),
    })
    const body = (await res.json()) as { receiveFrom?: string }
    if (res.status !== 200 || !body.receiveFrom) throw new Error(`subscription ${i}: ${res.status} ${JSON.stringify(body)}`)
    // The pod listens on 127.0.0.1: connect there, not to whatever `localhost` resolves to first
    const socket = new WebSocket(body.receiveFrom.replace('ws://localhost:', 'ws://127.0.0.1:'))
    socket.onmessage = event => {
      const at = performance.now()
      let told: { type?: unknown; object?: unknown; target?: unknown } | undefined
      try {
        told = JSON.parse(String(event.data)) as typeof told
      } catch {}
      // A document's notification names it as the object; a container's Add or Remove names it as the target
      if (typeof told?.type !== 'string' || (told.object !== topic && told.target !== topic)) arrival.misread++
      arrival.on(at)
    }
    const closed = new Promise<void>(resolve => {
      socket.onclose = () => resolve()
    })
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve()
      socket.onerror = () => reject(new Error(`subscription ${i}: the socket did not open`))
    })
    out[i] = { socket, closed }
  }
  await Promise.all(
    Array.from({ length: OPENING }, async () => {
      for (let i = next++; i < count; i = next++) await one(i)
    }),
  )
  return out
}

/** Closes the sockets and waits until the pod has closed its side of each (its channels are gone then). */
export async function closeAll(subscribers: readonly Subscriber[]): Promise<void> {
  for (const s of subscribers) s.socket.close()
  await Promise.race([Promise.all(subscribers.map(s => s.closed)), Bun.sleep(10_000)])
}

const put = (origin: string, path: string, i: number) =>
  new Request(origin + path, {
    method: 'PUT',
    headers: { 'content-type': 'text/turtle' },
    body: `<#it> <http://example.org/n> "${i}".`,
  })

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!

/**
 * Writes HOT one at a time; each write's latency to every subscriber is from sending the PUT to the message's arrival.
 * `timed` is told when the timed writes start and end (before the sockets are closed), for CPU readings around them.
 */
export async function timeLatency(at: Pod, subscribers: number, timed?: { start(): void; end(): void }): Promise<LatencyResult> {
  const arrival: Arrivals = { on: () => {}, misread: 0 }
  const subs = await openSubscribers(at, [HOT], subscribers, arrival)
  const samples: number[] = []
  const answers: number[] = []
  let missing = 0
  try {
    const writes = WRITES[subscribers] ?? 30
    for (let w = -3; w < writes; w++) {
      // three unmeasured writes first (JIT, connection)
      if (w === 0) timed?.start()
      const arrived: number[] = []
      const all = new Promise<void>(resolve => {
        arrival.on = at => {
          arrived.push(at)
          if (arrived.length === subscribers) resolve()
        }
      })
      const sent = performance.now()
      const res = await fetch(put(at.origin, HOT, w))
      await res.arrayBuffer()
      const answered = performance.now() - sent
      if (res.status >= 300) throw new Error(`PUT ${HOT}: ${res.status}`)
      await Promise.race([all, Bun.sleep(5000)])
      if (w < 0) continue
      answers.push(answered)
      missing += subscribers - arrived.length
      for (const at of arrived) samples.push(at - sent)
    }
    timed?.end()
  } finally {
    await closeAll(subs)
  }
  samples.sort((a, b) => a - b)
  answers.sort((a, b) => a - b)
  return {
    subscribers,
    writes: WRITES[subscribers] ?? 30,
    p50Ms: percentile(samples, 0.5),
    p99Ms: percentile(samples, 0.99),
    maxMs: samples.at(-1) ?? NaN,
    missing,
    misread: arrival.misread,
    answerP50Ms: percentile(answers, 0.5),
    answerP99Ms: percentile(answers, 0.99),
  }
}

/** CPU time a process has used, user + system, in ms (/proc/PID/stat fields 14 and 15, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const PUT_PATHS = Array.from({ length: PUT_DOCS }, (_, i) => `${CONTAINER}doc-${i}.ttl`)

/** PUT at c50 over PUT_DOCS documents (steady state, as the main PUT workload), and the pod's CPU ms per PUT meanwhile. */
async function putLoad(
  origin: string,
  pid: number,
  counter: { puts: number },
  listenersPid?: number,
  over: { paths: readonly string[]; durationMs: number; warmupMs: number } = { paths: PUT_PATHS, durationMs: PUT_SECONDS * 1000, warmupMs: 500 },
): Promise<{ load: LoadResult; cpuPerPutMs: number; listenersCpuPerPutMs: number }> {
  const cpu = cpuMs(pid)
  const listenersCpu = listenersPid ? cpuMs(listenersPid) : 0
  const load = await runLoad(
    async i => {
      counter.puts++
      return httpOperation(() => put(origin, over.paths[i % over.paths.length]!, i), [201, 204, 205])(i)
    },
    { concurrency: PUT_CONCURRENCY, durationMs: over.durationMs, warmupMs: over.warmupMs },
  )
  return {
    load,
    cpuPerPutMs: (cpuMs(pid) - cpu) / counter.puts,
    listenersCpuPerPutMs: listenersPid ? (cpuMs(listenersPid) - listenersCpu) / counter.puts : 0,
  }
}

const best = <T extends { load: LoadResult }>(a: T | undefined, b: T) => (!a || b.load.rps > a.load.rps ? b : a)

export async function benchNotifications(opts: { print?: boolean } = {}): Promise<NotificationsResult> {
  const pod: RunningPod = await startPod({
    // every subscriber is this process, one anonymous client: the per-client cap is lifted to measure the pod
    extraArgs: ['--log-level', 'warn', '--max-channels-per-client', String(MANY + 1000)],
    seed: (dataDir, baseUrl) =>
      seedPublicContainer(dataDir, baseUrl, CONTAINER, ['Read', 'Write'], async store => {
        await writeTurtle(store, baseUrl, HOT, '<#it> <http://example.org/n> "0".')
        for (const path of [...PUT_PATHS, ...PAIRED_DOCS, ...QUIET_DOCS]) await writeTurtle(store, baseUrl, path, '<#it> <http://example.org/n> "0".')
      }),
  })
  const origin = `http://127.0.0.1:${pod.port}`
  const at: Pod = { origin, baseUrl: pod.baseUrl }
  const docs = PUT_PATHS
  try {
    // Memory first, on a pod that has served nothing yet: idle, then holding MANY open subscriptions.
    await Bun.sleep(SETTLE_MS)
    const idleRssMb = rssMb(pod.proc.pid)
    const started = performance.now()
    const many = await openSubscribers(at, docs, MANY, { on: () => {}, misread: 0 })
    const openManyS = (performance.now() - started) / 1000
    await Bun.sleep(SETTLE_MS)
    const manyRssMb = rssMb(pod.proc.pid)
    await closeAll(many)

    const latency: LatencyResult[] = []
    for (const n of SUBSCRIBER_COUNTS) latency.push(await timeLatency(at, n))

    // PUT throughput: none listening, then LISTENING spread over the written documents, alternating.
    type Run = Awaited<ReturnType<typeof putLoad>>
    let putNone: Run | undefined
    let putListening: Run | undefined
    let putListeningApart: Run | undefined
    let delivered = 0
    let expected = 0
    let deliveredApart = 0
    let misread = 0
    let expectedApart = 0
    for (let round = 0; round < PUT_ROUNDS; round++) {
      putNone = best(putNone, await putLoad(origin, pod.proc.pid, { puts: 0 }))
      const counter = { puts: 0 }
      let received = 0
      const arrivals: Arrivals = {
        on: () => {
          received++
        },
        misread: 0,
      }
      const subs = await openSubscribers(at, docs, LISTENING, arrivals)
      putListening = best(putListening, await putLoad(origin, pod.proc.pid, counter))
      expected += counter.puts * (LISTENING / PUT_DOCS)
      const deadline = performance.now() + 3000
      while (received < counter.puts * (LISTENING / PUT_DOCS) && performance.now() < deadline) await Bun.sleep(20)
      delivered += received
      misread += arrivals.misread
      await closeAll(subs)

      const apart = await listenersElsewhere(at, docs)
      try {
        const apartCounter = { puts: 0 }
        putListeningApart = best(putListeningApart, await putLoad(origin, pod.proc.pid, apartCounter, apart.pid))
        const want = apartCounter.puts * (LISTENING / PUT_DOCS)
        expectedApart += want
        const until = performance.now() + 3000
        let got = await apart.received()
        while (got < want && performance.now() < until) {
          await Bun.sleep(50)
          got = await apart.received()
        }
        deliveredApart += got
        misread += apart.misread
      } finally {
        await apart.stop()
      }
    }
    const paired = await pairedPut(at, pod.proc.pid)
    if (pod.proc.exitCode !== null) throw new Error(`the pod exited during the notifications bench:\n${pod.output()}`)
    const result: NotificationsResult = {
      latency,
      idleRssMb,
      manyRssMb,
      openManyS,
      putNone: putNone!.load,
      putListening: putListening!.load,
      cpuPerPutNoneMs: putNone!.cpuPerPutMs,
      cpuPerPutListeningMs: putListening!.cpuPerPutMs,
      putListeningApart: putListeningApart!.load,
      cpuPerPutListeningApartMs: putListeningApart!.cpuPerPutMs,
      listenersCpuPerPutMs: putListeningApart!.listenersCpuPerPutMs,
      deliveredApart,
      expectedApart,
      delivered,
      expected,
      paired: paired.rounds,
      pairedDelivered: paired.delivered,
      pairedExpected: paired.expected,
      misread: misread + paired.misread,
    }
    if (opts.print !== false) for (const line of formatNotifications(result)) console.log(line)
    return result
  } finally {
    await pod.dispose()
  }
}

export function formatNotifications(r: NotificationsResult): string[] {
  const met = (ok: boolean) => (ok ? 'met' : 'not met')
  const lines = r.latency.map(
    l =>
      `notifications: write → notification, ${l.subscribers} WebSocket subscriber${l.subscribers === 1 ? '' : 's'} on one document (${l.writes} writes): ` +
      `p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms, max ${l.maxMs.toFixed(1)} ms${l.missing ? `, ${l.missing} never arrived` : ''}` +
      `${l.misread !== 0 ? `, ${l.misread} not a notification of the subscriber's topic` : ''}` +
      (l.subscribers === 1000 ? ` (aim p99 ≤ ${AIM_P99_MS} ms: ${met(l.p99Ms <= AIM_P99_MS)})` : '') +
      `; the PUT answered p50 ${l.answerP50Ms.toFixed(1)} ms, p99 ${l.answerP99Ms.toFixed(1)} ms`,
  )
  const growth = r.manyRssMb - r.idleRssMb
  lines.push(
    `notifications: pod RSS idle ${r.idleRssMb.toFixed(0)} MB, with ${MANY} open WebSocket subscriptions ${r.manyRssMb.toFixed(0)} MB ` +
      `(+${growth.toFixed(0)} MB; aim ≤ +${AIM_RSS_MB} MB: ${met(growth <= AIM_RSS_MB)}); opening them took ${r.openManyS.toFixed(1)} s`,
  )
  const ratio = r.putListening.rps / r.putNone.rps
  const ratioApart = r.putListeningApart.rps / r.putNone.rps
  lines.push(
    `notifications: PUT c${PUT_CONCURRENCY} with ${LISTENING} subscribers listening in another process (${LISTENING / PUT_DOCS} on each written document) ${r.putListeningApart.rps.toFixed(0)} req/s ` +
      `(p99 ${r.putListeningApart.p99Ms.toFixed(1)} ms) vs none ${r.putNone.rps.toFixed(0)} req/s (p99 ${r.putNone.p99Ms.toFixed(1)} ms): ${ratioApart.toFixed(2)}× (aim ≥ ${AIM_PUT_RATIO}×: ${met(ratioApart >= AIM_PUT_RATIO)}); ` +
      `${r.deliveredApart} of ${r.expectedApart} notifications arrived; pod CPU per PUT ${r.cpuPerPutListeningApartMs.toFixed(2)} ms vs ${r.cpuPerPutNoneMs.toFixed(2)} ms ` +
      `(${(r.cpuPerPutNoneMs / r.cpuPerPutListeningApartMs).toFixed(2)}× by the pod's own CPU); the listeners' process, which still shares the cores, ` +
      `${r.listenersCpuPerPutMs.toFixed(2)} ms CPU per PUT`,
    `notifications: PUT c${PUT_CONCURRENCY} with the ${LISTENING} subscribers in the load generator's own process (the earlier measure) ${r.putListening.rps.toFixed(0)} req/s ` +
      `(p99 ${r.putListening.p99Ms.toFixed(1)} ms): ${ratio.toFixed(2)}× of none; ` +
      `${r.delivered} of ${r.expected} notifications arrived; pod CPU per PUT ${r.cpuPerPutListeningMs.toFixed(2)} ms ` +
      `(receiving on the generator's thread slows the generator: this counts the bench's own work against the pod)`,
  )
  if (r.paired.length > 0) {
    const list = (f: (p: PairedPutRound) => number, digits = 0) => r.paired.map(p => f(p).toFixed(digits)).join(', ')
    const byRps = median(r.paired.map(p => p.heardRps / p.quietRps))
    const byCpu = median(r.paired.map(p => p.quietCpuMs / p.heardCpuMs))
    lines.push(
      `notifications: PUT c${PUT_CONCURRENCY}, ${r.paired.length} rounds in turn on one pod (the paired measure; the lines above are the measure before): ` +
        `documents ${LISTENING} subscribers in another process hear ${list(p => p.heardRps)} req/s vs documents nobody hears ${list(p => p.quietRps)} req/s: ` +
        `ratios ${list(p => p.heardRps / p.quietRps, 2)}, median ${byRps.toFixed(2)}× (aim ≥ ${AIM_PUT_RATIO}×: ${met(byRps >= AIM_PUT_RATIO)}); ` +
        `${r.pairedDelivered} of ${r.pairedExpected} notifications arrived, each parsed by its subscriber` +
        (r.misread !== 0 ? `; ${r.misread} in all the PUT runs were not a notification of the subscriber's topic` : ''),
      `notifications: the paired rounds' CPU per PUT: pod heard ${list(p => p.heardCpuMs, 2)} ms vs unheard ${list(p => p.quietCpuMs, 2)} ms ` +
        `(median ${byCpu.toFixed(2)}× by the pod's own CPU); the listeners' process ${list(p => p.listenersCpuMs, 2)} ms`,
    )
  }
  return lines
}

/**
 * The paired measure: LISTENING subscribers in a process of their own on PAIRED_DOCS for all rounds, and each round a
 * PUT run over PAIRED_DOCS (heard) and one over QUIET_DOCS (heard by nobody), the order swapped round by round.
 */
async function pairedPut(at: Pod, pid: number): Promise<{ rounds: PairedPutRound[]; delivered: number; expected: number; misread: number }> {
  const apart = await listenersElsewhere(at, PAIRED_DOCS)
  try {
    const rounds: PairedPutRound[] = []
    let expected = 0
    const over = (paths: readonly string[]) => ({ paths, durationMs: PAIRED_SECONDS * 1000, warmupMs: PAIRED_WARMUP_MS })
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      const heardCounter = { puts: 0 }
      const heard = () => putLoad(at.origin, pid, heardCounter, apart.pid, over(PAIRED_DOCS))
      const quiet = () => putLoad(at.origin, pid, { puts: 0 }, undefined, over(QUIET_DOCS))
      let h: Awaited<ReturnType<typeof heard>>
      let q: Awaited<ReturnType<typeof quiet>>
      if (round % 2 === 0) {
        h = await heard()
        q = await quiet()
      } else {
        q = await quiet()
        h = await heard()
      }
      expected += heardCounter.puts * (LISTENING / PUT_DOCS)
      rounds.push({ heardRps: h.load.rps, quietRps: q.load.rps, heardCpuMs: h.cpuPerPutMs, quietCpuMs: q.cpuPerPutMs, listenersCpuMs: h.listenersCpuPerPutMs })
    }
    const until = performance.now() + 3000
    let delivered = await apart.received()
    while (delivered < expected && performance.now() < until) {
      await Bun.sleep(50)
      delivered = await apart.received()
    }
    return { rounds, delivered, expected, misread: apart.misread }
  } finally {
    await apart.stop()
  }
}

/** LISTENING subscribers in a child process (notification-listeners.ts): receiving costs the load generator nothing. */
async function listenersElsewhere(at: Pod, docs: readonly string[]) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'notification-listeners.ts'), at.origin, at.baseUrl, String(LISTENING), ...docs], {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'inherit',
  })
  const lines = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  const nextLine = async () => {
    const { value, done } = await lines.read()
    if (done) throw new Error('the listeners process ended')
    return new TextDecoder().decode(value).trim()
  }
  if ((await nextLine()) !== 'ready') throw new Error('the listeners process did not get ready')
  let misread = 0
  return {
    pid: proc.pid,
    async received(): Promise<number> {
      proc.stdin.write('count\n')
      proc.stdin.flush()
      const line = await nextLine()
      misread = Number(/misread (\d+)/.exec(line)?.[1] ?? NaN)
      return Number(/received (\d+)/.exec(line)?.[1] ?? NaN)
    },
    /** Of the messages received when last asked, those that were not a notification of the subscriber's topic. */
    get misread() {
      return misread
    },
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}

if (import.meta.main) await benchNotifications()
