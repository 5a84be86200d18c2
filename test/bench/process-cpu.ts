// CPU time of another process, for benchmarks that judge a server by its CPU per unit of work, which a busy
// neighbour changes much less than its throughput.

import { readdirSync, readFileSync } from 'node:fs'

/** User + system CPU seconds of a process so far, every thread (/proc/PID/stat fields 14 and 15, in ticks of 10 ms; Linux). */
export function cpuSeconds(pid: number, task = ''): number {
  const fields = readFileSync(`/proc/${pid}${task}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/**
 * CPU seconds per thread name of a process (the JS thread `bun.exe`, Bun's HTTP client thread, JSC's collector and
 * helpers, the allocator's scavenger …), so native work a JS profiler does not see is counted too.
 */
export function threadSeconds(pid: number): Map<string, number> {
  const byName = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/\d+$/, '#')
      byName.set(name, (byName.get(name) ?? 0) + cpuSeconds(pid, `/task/${tid}`))
    } catch {
      // the thread ended meanwhile
    }
  }
  return byName
}

/** CPU nanoseconds each live thread of a process has run so far (/proc/PID/task/TID/schedstat, first field; Linux). */
export function threadNanoseconds(pid: number): Map<string, number> {
  const byThread = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      byThread.set(tid, Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]))
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byThread
}

/**
 * CPU nanoseconds a process ran between two `threadNanoseconds` readings: exact where `cpuSeconds` counts 10 ms ticks,
 * for rounds short enough that a tick is a few percent of their CPU. Taken thread by thread, so a thread that ended
 * meanwhile (Bun's pool lets idle ones go) only loses its own time in the span instead of taking its whole life's
 * CPU out of the sum; a thread that started meanwhile counts whole.
 */
export function nanosecondsBetween(before: ReadonlyMap<string, number>, after: ReadonlyMap<string, number>): number {
  let ns = 0
  for (const [tid, end] of after) ns += end - (before.get(tid) ?? 0)
  return ns
}

/** CPU nanoseconds of a process's first thread (a Bun process's JavaScript thread), as `threadNanoseconds` reads them. */
export function mainThreadNanoseconds(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0])
}
