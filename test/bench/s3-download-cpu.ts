// `bun test/bench/s3-download-cpu.ts [MiB] [ROUNDS] [ROOT …]`: where the CPU of a download of a file kept in a real
// Ceph RGW (test/s3/ceph-rgw.ts) goes, per MiB: the pod's by thread, the bench client's, Ceph's (radosgw and the
// OSD), the measures a busy shared machine changes far less than MB/s. One engine, one pod per source tree ROOT
// (default: this checkout; another tree, e.g. `git archive main | tar -x -C /tmp/before`, measures before and after in
// the same run). Every round reads the same object (the pod's own) each way, in turn:
// - `pod fetch`: fetch() of the pod's URL, the body read in JS and dropped (object-store.ts's through-the-pod arm);
// - `S3 stream`: Bun's `S3File.stream()` straight from the engine, read in JS and dropped (object-store.ts's
//   straight arm);
// - `S3 fetch`: fetch() of a presigned URL straight from the engine, the same client code as `pod fetch`;
// - `pod curl`, `S3 curl`: curl to /dev/null, a client in its own process.
// With PROFILE_DIR set, each pod runs under Bun's sampling profiler and leaves its profile there when it stops.

import { s3BenchArgs, startPodsPerRoot } from './s3-bench-pods.ts'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startCeph, stopCeph } from '../s3/pod-on-ceph.ts'
import { upload } from './large-files.ts'
import { nanosecondsBetween, threadNanoseconds } from './process-cpu.ts'
import type { RunningPod } from '../e2e/start-server.ts'

const { mib, rounds, bytes, roots } = s3BenchArgs(process.argv.slice(2))
/** Only these arms (comma-separated names as printed), e.g. `ARMS='pod fetch,S3 stream'`. */
const only = process.env.ARMS?.split(',').map(s => s.trim())

/** This process's children named `name` (Ceph's daemons: radosgw, ceph-osd, ceph-mon). */
function childrenNamed(...names: string[]): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === process.pid && names.includes(comm)) pids.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return pids
}

/** Thread CPU of several processes at once, keyed `pid/tid`. */
function snapshot(pids: readonly number[]): Map<string, number> {
  const all = new Map<string, number>()
  for (const pid of pids) for (const [tid, ns] of threadNanoseconds(pid)) all.set(`${pid}/${tid}`, ns)
  return all
}

/** CPU ns by thread name of one process between two `threadNanoseconds` readings. */
function byThreadName(pid: number, before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): Map<string, number> {
  const named = new Map<string, number>()
  for (const [tid, end] of after) {
    let name = '?'
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '#')
    } catch {
      // ended meanwhile
    }
    named.set(name, (named.get(name) ?? 0) + end - (before.get(tid) ?? 0))
  }
  return named
}

async function drain(body: ReadableStream<Uint8Array> | null): Promise<{ size: number; chunks: number }> {
  let size = 0
  let chunks = 0
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength
    chunks++
  }
  return { size, chunks }
}

/** curl to /dev/null; its own CPU (ns) from its resource usage. */
async function curl(url: string): Promise<{ size: number; chunks: number; clientNs: number }> {
  const proc = Bun.spawn(['curl', '--silent', '--show-error', '--output', '/dev/null', '--write-out', '%{http_code} %{size_download}', url], {
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const [out, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  if ((await proc.exited) !== 0) throw new Error(`curl: ${err}`)
  const [status = 0, size = 0] = out.split(' ').map(Number)
  if (status !== 200) throw new Error(`curl: ${status}`)
  const usage = proc.resourceUsage()!
  return { size, chunks: Number.NaN, clientNs: Number(usage.cpuTime.user + usage.cpuTime.system) * 1000 }
}

const engine = await startCeph({ memstoreBytes: 6 * 1024 ** 3 })
const pods: { root: string; pod: RunningPod; key: string }[] = []
try {
  const ceph = childrenNamed('radosgw', 'ceph-osd', 'ceph-mon')
  for (const { root, pod, prefix } of await startPodsPerRoot(engine, roots)) {
    await upload(pod, bytes)
    const listed = await engine.client.list({ prefix })
    const key = (listed.contents ?? []).find(o => o.size === bytes)?.key
    if (!key) throw new Error(`no ${bytes}-byte object under ${prefix}`)
    pods.push({ root, pod, key })
  }
  await Bun.sleep(2000)
  const self = process.pid
  for (let round = 0; round < rounds; round++) {
    for (const { root, pod, key } of pods) {
      const url = new URL('/files/film.bin', pod.baseUrl).href
      const presigned = () => engine.client.presign(key, { expiresIn: 600 })
      const arms: [string, () => Promise<{ size: number; chunks: number; clientNs?: number }>][] = [
        ['pod fetch', async () => drain((await fetch(url)).body)],
        ['S3 stream', () => drain(engine.client.file(key).stream())],
        ['S3 fetch', async () => drain((await fetch(presigned())).body)],
        ['pod curl', () => curl(url)],
        ['S3 curl', () => curl(presigned())],
      ]
      for (const [name, read] of arms) {
        if (only && !only.includes(name)) continue
        const podPid = pod.proc.pid
        const [podBefore, selfBefore, cephBefore] = [threadNanoseconds(podPid), threadNanoseconds(self), snapshot(ceph)]
        const started = performance.now()
        const got = await read()
        const ms = performance.now() - started
        const [podAfter, selfAfter, cephAfter] = [threadNanoseconds(podPid), threadNanoseconds(self), snapshot(ceph)]
        if (got.size !== bytes) throw new Error(`${name}: ${got.size} bytes, not ${bytes}`)
        const perMib = (ns: number) => ns / 1e6 / mib
        const client = got.clientNs ?? nanosecondsBetween(selfBefore, selfAfter)
        const viaPod = name.startsWith('pod')
        const podThreads = [...byThreadName(podPid, podBefore, podAfter)]
          .map(([n, ns]) => [n, perMib(ns)] as const)
          .filter(([, v]) => v >= 0.05)
          .sort((a, b) => b[1] - a[1])
        const podMs = perMib(nanosecondsBetween(podBefore, podAfter))
        console.log(
          [
            `${pods.length > 1 ? `${root} ` : ''}${name}: ${(mib / (ms / 1000)).toFixed(0)} MB/s`,
            `client ${perMib(client).toFixed(2)} ms/MiB${Number.isNaN(got.chunks) ? '' : ` (${(bytes / got.chunks / 1024).toFixed(0)} KiB/chunk)`}`,
            `Ceph ${perMib(nanosecondsBetween(cephBefore, cephAfter)).toFixed(2)} ms/MiB`,
            viaPod ? `pod ${podMs.toFixed(2)} ms/MiB (${podThreads.map(([n, v]) => `${n} ${v.toFixed(2)}`).join(', ')})` : `pod idle ${podMs.toFixed(2)}`,
          ].join(', '),
        )
        await Bun.sleep(300)
      }
    }
  }
} finally {
  for (const { pod } of pods) await pod.dispose()
  await stopCeph(engine)
}
