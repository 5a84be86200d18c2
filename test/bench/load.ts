// A small, bounded load generator: N concurrent loops repeating one operation for a fixed time.

/** One unit of work; resolves to undefined when the answer was right, else a short reason. */
export type Operation = (i: number) => Promise<string | undefined>

export interface LoadOptions {
  readonly concurrency: number
  readonly durationMs: number
  /** Run, unmeasured, before the clock starts (JIT, caches, connection pool). */
  readonly warmupMs: number
}

export interface LoadResult {
  readonly requests: number
  readonly failures: number
  readonly firstFailure?: string
  readonly seconds: number
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
}

/** Caps memory and the loop however fast the operation is. */
const MAX_OPERATIONS = 2_000_000

export async function runLoad(op: Operation, opts: LoadOptions): Promise<LoadResult> {
  await drive(op, opts.concurrency, opts.warmupMs, () => {})
  const latencies: number[] = []
  let failures = 0
  let firstFailure: string | undefined
  const started = performance.now()
  await drive(op, opts.concurrency, opts.durationMs, (ms, failure) => {
    latencies.push(ms)
    if (failure !== undefined) {
      failures++
      firstFailure ??= failure
    }
  })
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    requests: latencies.length,
    failures,
    ...(firstFailure ? { firstFailure } : {}),
    seconds,
    rps: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  }
}

async function drive(op: Operation, concurrency: number, durationMs: number, record: (ms: number, failure?: string) => void) {
  const end = performance.now() + durationMs
  let next = 0
  const loop = async () => {
    while (performance.now() < end && next < MAX_OPERATIONS) {
      const i = next++
      const t0 = performance.now()
      let failure: string | undefined
      try {
        failure = await op(i)
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err)
      }
      record(performance.now() - t0, failure)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop))
}

/** Nearest-rank percentile of sorted samples. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
}

/** An HTTP operation: sends the i-th request, reads the whole body, checks the status. */
export function httpOperation(makeRequest: (i: number) => Request | Promise<Request>, okStatuses: readonly number[]): Operation {
  return async i => {
    const res = await fetch(await makeRequest(i))
    await res.arrayBuffer()
    return okStatuses.includes(res.status) ? undefined : `status ${res.status}`
  }
}
