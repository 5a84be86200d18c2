// A full garbage collection after every so many bytes streamed through the process: for loops that turn a
// large body into garbage one chunk at a time (bodies the pod does not own, such as an import's, to disk or to an
// object store; the backup's archive). A request body empties each chunk once written or copied instead
// (BlobLimits.ownsChunks, store/write-body.ts, store/s3-part-writer.ts) and needs none.
//
// JavaScriptCore schedules collections by the growth of its own heap, not by the native memory that chunk
// buffers hold, so between two collections the written chunks pile up: measured during a 1 GB upload, RSS
// rose in a saw-tooth to 90-145 MB above idle, and during the backup of a pod holding a 300 MiB file to
// ~155 MB above. A full collection of the pod's heap takes ~7 ms; one per 64 MiB costs ~1 % of a stream's time.

/** Bytes streamed between two collections: the RSS a stream adds stays about this size. */
export const COLLECT_EVERY_BYTES = 64 * 1024 * 1024

/** Returns `noteStreamed(bytes)`; each call counts bytes, and a collection runs each time the count passes `every`. */
export function collectEvery(
  every = COLLECT_EVERY_BYTES,
  collect: () => void = () => {
    Bun.gc(true)
  },
): (bytes: number) => void {
  let since = 0
  return bytes => {
    since += bytes
    if (since < every) return
    since = 0
    collect()
  }
}
