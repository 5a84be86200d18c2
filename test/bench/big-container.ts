// Folders (issue 22): a 100,000-member container over real HTTP — time to the first byte of its listing, members
// per second, the pod's RSS meanwhile — and what adding and removing one member costs at 10 and at 100,000 members.
// Run alone with `bun test/bench/big-container.ts`, or call `benchBigContainer()`.

import { readFileSync } from 'node:fs'
import { memberName, publicAcl, seedMembers, seedPublicContainer, writeTurtle } from '../e2e/seed-store.ts'
import { startPod, type RunningPod } from '../e2e/start-server.ts'

export const MEMBERS = 100_000
const SMALL = 10
/** Aims of issue 22: first bytes within 50 ms, at least 100,000 members a second. */
const AIM_FIRST_BYTE_MS = 50
const AIM_MEMBERS_PER_S = 100_000
const WRITES = 30

export interface ListingResult {
  readonly syntax: string
  readonly firstByteMs: number
  readonly totalMs: number
  readonly membersPerS: number
  readonly mb: number
  readonly peakRssMb: number
}
export interface WriteCostResult {
  readonly members: number
  readonly putP50Ms: number
  readonly deleteP50Ms: number
}
export interface BigContainerResult {
  readonly listings: ListingResult[]
  readonly pageP50Ms: number
  readonly writes: WriteCostResult[]
  readonly endRssMb: number
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function timeListing(pod: RunningPod, syntax: string): Promise<ListingResult> {
  let peak = rssMb(pod.proc.pid)
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pod.proc.pid))
  }, 20)
  try {
    const started = performance.now()
    const res = await fetch(`${pod.baseUrl}/big/`, { headers: { accept: syntax } })
    const reader = res.body!.getReader()
    let bytes = 0
    let firstByteMs = NaN
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (bytes === 0) firstByteMs = performance.now() - started
      bytes += chunk.value.byteLength
    }
    const totalMs = performance.now() - started
    return { syntax, firstByteMs, totalMs, membersPerS: MEMBERS / (totalMs / 1000), mb: bytes / 1e6, peakRssMb: peak }
  } finally {
    clearInterval(sampler)
  }
}

async function timeWrites(pod: RunningPod, container: string, members: number): Promise<WriteCostResult> {
  const puts: number[] = []
  const deletes: number[] = []
  for (let i = 0; i < WRITES; i++) {
    const url = `${pod.baseUrl}${container}extra-${i}.txt`
    let t = performance.now()
    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'x' })
    puts.push(performance.now() - t)
    t = performance.now()
    const del = await fetch(url, { method: 'DELETE' })
    deletes.push(performance.now() - t)
    if (put.status !== 201 || del.status !== 204) throw new Error(`PUT ${put.status}, DELETE ${del.status} in ${container}`)
  }
  return { members, putP50Ms: median(puts), deleteP50Ms: median(deletes) }
}

export async function benchBigContainer(opts: { print?: boolean } = {}): Promise<BigContainerResult> {
  const pod = await startPod({
    extraArgs: ['--log-level', 'warn'],
    seed: (dataDir, baseUrl) =>
      seedPublicContainer(dataDir, baseUrl, '/big/', ['Read', 'Write'], async store => {
        await seedMembers(store, baseUrl, '/big/', MEMBERS, Date.now() - MEMBERS * 1000)
        await writeTurtle(store, baseUrl, '/small/', '')
        await writeTurtle(store, baseUrl, '/small/.acl', publicAcl(`${baseUrl}/small/`, ['Read', 'Write']))
        await seedMembers(store, baseUrl, '/small/', SMALL, Date.now())
      }),
  })
  try {
    const listings: ListingResult[] = []
    for (const syntax of ['text/turtle', 'application/n-triples', 'application/ld+json']) listings.push(await timeListing(pod, syntax))
    const pages: number[] = []
    for (let i = 0; i < 20; i++) {
      const t = performance.now()
      const res = await fetch(`${pod.baseUrl}/big/?page=after.${Buffer.from(memberName((i * 4999) % MEMBERS)).toString('base64url')}&limit=1000`)
      await res.arrayBuffer()
      pages.push(performance.now() - t)
    }
    const writes = [await timeWrites(pod, '/small/', SMALL), await timeWrites(pod, '/big/', MEMBERS)]
    const result = { listings, pageP50Ms: median(pages), writes, endRssMb: rssMb(pod.proc.pid) }
    if (opts.print !== false) print(result)
    return result
  } finally {
    await pod.dispose()
  }
}

function print(r: BigContainerResult) {
  for (const l of r.listings) {
    const aims = `aim < ${AIM_FIRST_BYTE_MS} ms: ${l.firstByteMs < AIM_FIRST_BYTE_MS ? 'met' : 'not met'}; aim ≥ ${AIM_MEMBERS_PER_S}/s: ${l.membersPerS >= AIM_MEMBERS_PER_S ? 'met' : 'not met'}`
    console.log(
      `big container: GET of ${MEMBERS} members as ${l.syntax}: first byte ${l.firstByteMs.toFixed(1)} ms, all ${l.totalMs.toFixed(0)} ms ` +
        `(${Math.round(l.membersPerS)} members/s, ${l.mb.toFixed(1)} MB), pod RSS peak ${l.peakRssMb.toFixed(0)} MB (${aims})`,
    )
  }
  console.log(`big container: a page of 1,000 members: p50 ${r.pageP50Ms.toFixed(1)} ms`)
  for (const w of r.writes)
    console.log(`big container: PUT then DELETE of one member among ${w.members}: p50 ${w.putP50Ms.toFixed(1)} ms / ${w.deleteP50Ms.toFixed(1)} ms`)
  console.log(`big container: pod RSS after the listings and writes: ${r.endRssMb.toFixed(0)} MB (before the reclaimer's collection)`)
}

if (import.meta.main) await benchBigContainer()
