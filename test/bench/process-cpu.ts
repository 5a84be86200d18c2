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
