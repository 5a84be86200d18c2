// A part of the pod loaded with its first use (a module and what it builds), then kept. A load that fails is not
// kept: its callers get its error (each request a logged 500, never a wait without end) and the next use tries again.

export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined
  return () =>
    (loaded ??= Promise.resolve()
      .then(load)
      .catch((err: unknown) => {
        loaded = undefined
        throw err
      }))
}
