// The steps of a start in order (issue 41 "Restart ≤ 150 ms"): with SOLOPOD_START_TIMELINE set, the pod
// prints one line to stderr when it has sent its first response, each step with the wall time since the
// process began (Bun's performance.timeOrigin) and the CPU time the process had used by then — the CPU
// time is what a loaded machine changes little. test/bench/startup.ts reads the line; docs/performance.md
// ("Start-up") has what it showed.

const enabled = Boolean(process.env.SOLOPOD_START_TIMELINE)
const steps: string[] = []
let done = !enabled

/** Marks the end of a step of the start (a no-op unless SOLOPOD_START_TIMELINE is set, and after the first response). */
export function markStart(step: string): void {
  if (done) return
  const cpu = process.cpuUsage()
  steps.push(`${step} ${performance.now().toFixed(1)}/${((cpu.user + cpu.system) / 1000).toFixed(1)}`)
}

/** Prints the timeline once the first response is made (the response itself is returned unchanged). */
export function afterFirstResponse<T>(response: Promise<T>): Promise<T> {
  if (done) return response
  response.finally(() => {
    if (done) return
    markStart('first-response')
    done = true
    console.error(`solopod: start timeline (step wall-ms/cpu-ms): ${steps.join(', ')}`)
  })
  return response
}

// The first module main.ts evaluates: Bun has started, and read and parsed main.ts's own imports. The command's
// modules (the server's, for `serve`) are loaded after, by the `imported` step.
markStart('parsed')
