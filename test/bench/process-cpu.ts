// CPU time of another process, for benchmarks that judge a server by its CPU per unit of work, which a busy
// neighbour changes much less than its throughput.

import { readFileSync } from 'node:fs'

/** User + system CPU seconds of a process so far, every thread (/proc/PID/stat fields 14 and 15, in ticks of 10 ms; Linux). */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
