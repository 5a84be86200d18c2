// The pod's own CPU for notifications, measured where req/s on a shared machine is noise (issue 41): PUT c50 over
// 200 documents each heard by 5 WebSocket subscribers (in a process of their own) against PUT over 200 documents
// nobody hears, alternating on the same pod; and 1,000 subscribers on one document, the pod's CPU and the
// latency per write.
// `bun test/bench/notification-cpu.ts [ROUNDS] [PROFILE_DIR]` (with PROFILE_DIR the pod runs with --cpu-prof).

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeTurtle, seedPublicContainer } from '../e2e/seed-store.ts'
import { startPod } from '../e2e/start-server.ts'
import { httpOperation, runLoad } from './load.ts'
import { HOT, timeLatency } from './notifications.ts'

const [rounds = '3', profileDir] = process.argv.slice(2)
const CONTAINER = '/live/'
const DOCS = 200
const LISTENING = 1000
/** Subscribers on the one document of the fan-out (FANOUT=1 gives the cost of the write alone). */
const FANOUT = Number(process.env.FANOUT ?? LISTENING)
const heard = Array.from({ length: DOCS }, (_, i) => `${CONTAINER}doc-${i}.ttl`)
const quiet = Array.from({ length: DOCS }, (_, i) => `${CONTAINER}quiet-${i}.ttl`)

/** User and system CPU ms of a process so far (/proc/PID/stat, clock ticks of 10 ms). */
function cpuOf(pid: number): { user: number; sys: number } {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return { user: Number(f[11]) * 10, sys: Number(f[12]) * 10 }
}
const cpuMs = (pid: number) => {
  const c = cpuOf(pid)
  return c.user + c.sys
}
const put = (origin: string, path: string, i: number) =>
  new Request(origin + path, { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: `<#it> <http://example.org/n> "${i}".` })

if (profileDir) process.env.BUN_OPTIONS = `--cpu-prof --cpu-prof-md --cpu-prof-dir=${profileDir}`
const pod = await startPod({
  extraArgs: ['--log-level', 'warn', '--max-channels-per-client', '20000'],
  seed: (dataDir, baseUrl) =>
    seedPublicContainer(dataDir, baseUrl, CONTAINER, ['Read', 'Write'], async store => {
      await writeTurtle(store, baseUrl, HOT, '<#it> <http://example.org/n> "0".')
      for (const p of [...heard, ...quiet]) await writeTurtle(store, baseUrl, p, '<#it> <http://example.org/n> "0".')
    }),
})
delete process.env.BUN_OPTIONS
const origin = `http://127.0.0.1:${pod.port}`
const pid = pod.proc.pid

let listenersPid = 0
async function putRun(docs: readonly string[]) {
  let puts = 0
  const cpu = cpuMs(pid)
  const sys = cpuOf(pid).sys
  const other = listenersPid ? cpuMs(listenersPid) : 0
  const load = await runLoad(
    async i => {
      puts++
      return httpOperation(() => put(origin, docs[i % docs.length]!, i), [201, 204, 205])(i)
    },
    { concurrency: 50, durationMs: 2500, warmupMs: 500 },
  )
  return {
    rps: load.rps,
    cpuPerPut: (cpuMs(pid) - cpu) / puts,
    sysPerPut: (cpuOf(pid).sys - sys) / puts,
    listenersPerPut: listenersPid ? (cpuMs(listenersPid) - other) / puts : 0,
    puts,
  }
}

try {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, 'notification-listeners.ts'), origin, pod.baseUrl, String(LISTENING), ...heard], {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'inherit',
  })
  listenersPid = proc.pid
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  const line = async () => new TextDecoder().decode((await reader.read()).value).trim()
  if ((await line()) !== 'ready') throw new Error('listeners not ready')
  const received = async () => {
    proc.stdin.write('count\n')
    proc.stdin.flush()
    return Number(/received (\d+)/.exec(await line())?.[1])
  }
  let want = 0
  for (let r = 0; r < Number(rounds); r++) {
    const none = await putRun(quiet)
    const heardRun = await putRun(heard)
    want += heardRun.puts * (LISTENING / DOCS)
    console.log(
      `round ${r}: none ${none.rps.toFixed(0)} req/s ${none.cpuPerPut.toFixed(3)} ms/PUT; heard ${heardRun.rps.toFixed(0)} req/s ${heardRun.cpuPerPut.toFixed(3)} ms/PUT (sys ${heardRun.sysPerPut.toFixed(3)} vs ${none.sysPerPut.toFixed(3)}; listeners' process ${heardRun.listenersPerPut.toFixed(3)} ms) ` +
        `(${(heardRun.rps / none.rps).toFixed(2)}×, +${(heardRun.cpuPerPut - none.cpuPerPut).toFixed(3)} ms)`,
    )
  }
  const until = performance.now() + 5000
  let got = await received()
  while (got < want && performance.now() < until) {
    await Bun.sleep(50)
    got = await received()
  }
  console.log(`delivered ${got} of ${want}`)
  proc.kill('SIGTERM')
  await proc.exited

  // 1,000 on one document: latency per write and the pod's CPU per write
  let pod0 = { user: 0, sys: 0 }
  let self0 = process.cpuUsage()
  const used = { pod: 0, sys: 0, self: 0 }
  const l = await timeLatency({ origin, baseUrl: pod.baseUrl }, FANOUT, {
    start() {
      pod0 = cpuOf(pid)
      self0 = process.cpuUsage()
    },
    end() {
      const now = cpuOf(pid)
      const self = process.cpuUsage(self0)
      used.pod = now.user + now.sys - pod0.user - pod0.sys
      used.sys = now.sys - pod0.sys
      used.self = (self.user + self.system) / 1000
    },
  })
  console.log(
    `fan-out to ${FANOUT} on one document: p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms, missing ${l.missing}; ` +
      `the PUT answered p50 ${l.answerP50Ms.toFixed(1)} ms, p99 ${l.answerP99Ms.toFixed(1)} ms; ` +
      `pod CPU per write ${(used.pod / l.writes).toFixed(2)} ms (sys ${(used.sys / l.writes).toFixed(2)}); receiving process ${(used.self / l.writes).toFixed(2)} ms`,
  )
} finally {
  await pod.dispose()
}
