// CPU time of another process, for benchmarks that judge a server by its CPU per unit of work, which a busy
// neighbour changes much less than its throughput.

import { readdirSync, readFileSync } from 'node:fs'

/** User + system CPU seconds of a process so far, every thread (/proc/PID/stat fields 14 and 15, in ticks of 10 ms; Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/**
 * CPU nanoseconds a process's live threads have run so far (/proc/PID/task/TID/schedstat, first field; Linux): exact where
 * `cpuSeconds` counts 10 ms ticks, for rounds short enough that a tick is a few percent of their CPU. A thread that
 * ends takes its time with it, so compare two readings only across a span in which the process keeps its threads (a
 * warm server's are its JS thread, JIT workers, collector helpers and I/O pool, started once).
 */
export function cpuNanoseconds(pid: number): number {
  let ns = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return ns
}
