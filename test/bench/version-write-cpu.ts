// `bun test/bench/version-write-cpu.ts [ROUNDS] [WRITES]`: the CPU a version adds to a 1 KB overwrite, in process, no HTTP.
// Two stores (versions on, off) in one process take turns in rounds of synced overwrites, 8 at a time, as the PUT
// bench's pods do; each round's process CPU (every thread: LevelDB's own included) is divided by its writes. What
// the pod over HTTP adds to both is left out, so the difference a version makes is not drowned (docs/versions.md).

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Parser } from 'n3'
import type { Quad } from '@rdfjs/types'
import { openStore, type Store } from '../../src/store/open-store.ts'
import { readKeys, writeResource } from '../../src/store/resources.ts'
import { writeTurtle } from '../e2e/seed-store.ts'

const BASE = 'http://localhost:3990'
const NAMES = 50
const CONCURRENCY = 8
const rounds = Number(process.argv[2] ?? 7)
const writesPerRound = Number(process.argv[3] ?? 2000)
const same = process.argv.includes('--same')

const ttlOf = (n: number) => `<#it> <http://schema.org/text> "${same ? 'x'.repeat(1000) : String(n).padStart(1000, 'y')}".\n`
let edits = 0
const write = (store: Store, i: number, now: number) => {
  const path = `/v/doc${i % NAMES}.ttl`
  const ttl = ttlOf(edits++)
  const triples = new Parser({ baseIRI: BASE + path }).parse(ttl) as Quad[]
  return writeResource(store, BASE, path, { kind: 'rdf', contentType: 'text/turtle', triples, size: ttl.length }, now)
}

/** CPU seconds per thread name so far (the JS thread, LevelDB's compaction thread, the pool that writes batches). */
function threadSeconds(): Map<string, number> {
  const byName = new Map<string, number>()
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '#')
      const f = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      byName.set(name, (byName.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) / 100)
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName
}
/** Bytes this process had written to disk so far (Linux /proc: the log, the tables, compactions). */
const diskBytes = () => Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1])
const bytesTotals = { on: 0, off: 0 }
const threadTotals = { on: new Map<string, number>(), off: new Map<string, number>() }
const writesTotal = { on: 0, off: 0 }

async function run(store: Store, writes: number, arm?: 'on' | 'off'): Promise<number> {
  let next = 0
  const threads0 = threadSeconds()
  const bytes0 = diskBytes()
  const cpu0 = process.cpuUsage()
  const loop = async () => {
    while (next < writes) await write(store, next++, Date.now())
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop))
  const cpu = process.cpuUsage(cpu0)
  if (arm) {
    writesTotal[arm] += writes
    bytesTotals[arm] += diskBytes() - bytes0
    for (const [name, secs] of threadSeconds()) threadTotals[arm].set(name, (threadTotals[arm].get(name) ?? 0) + secs - (threads0.get(name) ?? 0))
  }
  return (cpu.user + cpu.system) / writes
}

/** LevelDB's own count (`leveldb.stats`) of what its compactions and flushes wrote, and the time they took, all levels. */
function compactionsOf(store: Store): { writtenMb: number; seconds: number } {
  let writtenMb = 0
  let seconds = 0
  for (const line of store.db.getProperty('leveldb.stats').split('\n')) {
    const cols = line.trim().split(/\s+/).map(Number)
    if (cols.length === 6 && cols.every(Number.isFinite)) {
      seconds += cols[3]!
      writtenMb += cols[5]!
    }
  }
  return { writtenMb, seconds }
}

const dirs: string[] = []
async function open(keepVersions: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'solopod-version-cpu-'))
  dirs.push(dir)
  const store = await openStore(dir, { keepVersions })
  const t = Date.now() - 60_000
  await writeTurtle(store, BASE, '/', '', t)
  await writeTurtle(store, BASE, '/v/', '', t)
  return store
}
const on = await open(true)
const off = await open(false)
try {
  await run(off, 500)
  await run(on, 500)
  const per = { on: [] as number[], off: [] as number[] }
  for (let r = 0; r < rounds; r++) {
    for (const arm of r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) per[arm].push(await run(arm === 'on' ? on : off, writesPerRound, arm))
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!
  const diffs = per.on.map((v, i) => v - per.off[i]!)
  console.log(
    `${same ? 'same bytes' : 'a real edit'}: CPU per write, median of ${rounds} rounds of ${writesPerRound}: versions on ${median(per.on).toFixed(0)} µs, ` +
      `off ${median(per.off).toFixed(0)} µs, on − off per round (median) ${median(diffs).toFixed(0)} µs [${diffs.map(d => d.toFixed(0)).join(' ')}]`,
  )
  // What the write's reads cost on each database as the rounds left it, then compacted: the graph's keys of each document.
  for (const when of ['as left', 'compacted'])
    for (const arm of ['on', 'off'] as const) {
      const store = arm === 'on' ? on : off
      if (when === 'compacted') await store.db.compactRange(Buffer.alloc(0) as never, Buffer.from([0xff]) as never, { keyEncoding: 'buffer' })
      const c0 = process.cpuUsage()
      for (let i = 0; i < 2000; i++) await readKeys(store, BASE, `/v/doc${i % NAMES}.ttl`)
      const c = process.cpuUsage(c0)
      console.log(`  versions ${arm}, ${when}: the graph's keys read back in ${((c.user + c.system) / 2000).toFixed(0)} µs CPU`)
    }
  for (const arm of ['on', 'off'] as const) {
    const us = [...threadTotals[arm]].filter(([, s]) => s > 0).map(([name, s]) => `${name} ${((s / writesTotal[arm]) * 1e6).toFixed(0)}`)
    const st = (arm === 'on' ? on : off).commitStats
    const c = compactionsOf(arm === 'on' ? on : off)
    console.log(
      `  versions ${arm}, CPU µs per write by thread: ${us.join(', ')}; ${(st.writes / st.batches).toFixed(2)} writes per synced batch, ${(bytesTotals[arm] / writesTotal[arm]).toFixed(0)} bytes written to disk per write; LevelDB's flushes and compactions wrote ${((c.writtenMb * 2 ** 20) / writesTotal[arm]).toFixed(0)} bytes a write in ${((c.seconds / writesTotal[arm]) * 1e6).toFixed(0)} µs (its own figures, the whole run)`,
    )
  }
} finally {
  await on.close()
  await off.close()
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
}
