// Runs a sweep of stored leftovers now and then on a timer, one at a time, for as long as the pod serves.

/**
 * Sweeps once now, then every `everyMs`; a sweep still running when the timer fires is not started twice,
 * and the timer never keeps the process alive. Returns `stop`, which resolves once no sweep is under way
 * (the store may close then).
 */
export function sweepRegularly(
  sweep: () => Promise<number>,
  o: {
    everyMs: number
    onSwept?: (count: number) => void
    onError?: (err: unknown) => void
  },
): () => Promise<void> {
  let running: Promise<void> | undefined
  const run = () => {
    running ??= sweep()
      .then(
        count => {
          if (count > 0) o.onSwept?.(count)
        },
        (err: unknown) => o.onError?.(err),
      )
      .finally(() => {
        running = undefined
      })
  }
  run()
  const timer = setInterval(run, o.everyMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
