// A process's resident memory by who holds it, from /proc/PID/smaps (Linux), for the idle-memory notes in
// docs/performance.md. Anonymous memory carries no name, so it is told apart by where and how it is mapped:
// mimalloc (Bun's allocator: the JS heap, strings, Bun's buffers) reserves its arenas at hinted addresses
// from 2 TiB up; glibc's per-thread arenas (LevelDB's threads allocate with malloc) are 64 MiB-aligned
// runs of 64 MiB; the JIT's code is the one rwx mapping.

import { readFileSync } from 'node:fs'

const MIB = 1024 * 1024
const GLIBC_HEAP = 64 * MIB
const MIMALLOC_HINT_FROM = 2n << 40n
const MIMALLOC_HINT_TO = 64n << 40n

interface Mapping {
  readonly start: bigint
  readonly end: bigint
  readonly perms: string
  readonly name: string
  rssKb: number
}

function mappings(pid: number): Mapping[] {
  const out: Mapping[] = []
  let last: Mapping | undefined
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) {
      last = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3]!, name: head[4]!, rssKb: 0 }
      out.push(last)
    } else if (last && line.startsWith('Rss:')) last.rssKb = Number(line.split(/\s+/)[1])
  }
  return out
}

/** The run of adjacent anonymous mappings (one reservation split by mprotect) each anonymous mapping belongs to. */
function anonymousRuns(all: readonly Mapping[]): Map<Mapping, { start: bigint; end: bigint }> {
  const runs = new Map<Mapping, { start: bigint; end: bigint }>()
  let run: { start: bigint; end: bigint } | undefined
  for (const m of all) {
    if (m.name !== '') {
      run = undefined
      continue
    }
    if (!run || run.end !== m.start) run = { start: m.start, end: m.end }
    else run.end = m.end
    runs.set(m, run)
  }
  return runs
}

export function kindOf(m: Mapping, run: { start: bigint; end: bigint } | undefined, exe: string): string {
  if (m.name === exe || m.name.endsWith('/bun.exe')) return 'bun executable'
  if (/\.(so(\.[\d.]+)?|node)$/.test(m.name)) return 'shared libraries'
  if (/\/\d+\.(ldb|log)$/.test(m.name)) return 'LevelDB files'
  if (m.name === '[heap]') return 'glibc main heap'
  if (m.name.startsWith('[')) return `${m.name}`
  if (m.name !== '') return 'other files'
  if (m.perms.includes('x')) return 'JIT code'
  if (m.start >= MIMALLOC_HINT_FROM && m.start < MIMALLOC_HINT_TO) return 'mimalloc'
  if (run && glibcHeapAt(run, m)) return 'glibc arenas'
  return 'other anonymous'
}

/**
 * glibc maps each arena heap as 64 MiB at a 64 MiB boundary, readable from its start as far as it is used;
 * the kernel merges the heap's mappings with anonymous neighbours, so the run may be longer.
 */
function glibcHeapAt(run: { start: bigint; end: bigint }, m: Mapping): boolean {
  const heap = BigInt(GLIBC_HEAP)
  const base = m.start - (m.start % heap)
  return base >= run.start && base + heap <= run.end && m.end <= base + heap
}

/** Resident KB by kind: 'bun executable', 'mimalloc', 'glibc arenas', 'glibc main heap', 'LevelDB files', … */
export function smapsByKind(pid: number): Map<string, number> {
  const exe = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? ''
  const all = mappings(pid)
  const runs = anonymousRuns(all)
  const kinds = new Map<string, number>()
  for (const m of all) {
    if (m.rssKb === 0) continue
    const kind = kindOf(m, runs.get(m), exe)
    kinds.set(kind, (kinds.get(kind) ?? 0) + m.rssKb)
  }
  return kinds
}

/** The largest resident mappings, one line each, for a closer look. */
export function largestMappings(pid: number, n = 12): string[] {
  return mappings(pid)
    .sort((a, b) => b.rssKb - a.rssKb)
    .slice(0, n)
    .map(m => `${(m.rssKb / 1024).toFixed(1)} MB ${m.start.toString(16)}-${m.end.toString(16)} ${m.perms} ${m.name}`)
}
