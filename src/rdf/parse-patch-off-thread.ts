// PATCH bodies parsed on a worker thread: sparqljs can take a second on a 1 MiB update, and the
// event loop must keep answering every other request meanwhile.

import { HttpError } from '../http/errors.ts'
import { checkPatchType, planPatch, type PatchSyntax } from './patch.ts'
import type { PatchPlan } from './patch-plan.ts'
import type { PatchJob, PatchJobResult } from './patch-worker.ts'

/** A parse that takes longer than this is stopped (the worker is replaced): caps and the nesting check make it rare. */
const PARSE_TIMEOUT_MS = 10_000

/**
 * In a compiled binary (`bun run build`) every module's import.meta.url is the executable's, and a
 * worker entry sits at its path under src/ (build-executable.ts lists it as an entrypoint).
 */
const WORKER_ENTRY = import.meta.url.includes('/$bunfs/')
  ? new URL('./rdf/patch-worker.ts', import.meta.url)
  : new URL('./patch-worker.ts', import.meta.url)

interface Pending { resolve(s: PatchSyntax): void; reject(e: unknown): void; timer: ReturnType<typeof setTimeout> }

let worker: Worker | undefined
let nextId = 0
const pending = new Map<number, Pending>()

function failAll(error: HttpError) {
  for (const [id, p] of pending) { clearTimeout(p.timer); p.reject(error); pending.delete(id) }
  worker?.terminate()
  worker = undefined
}

function startWorker(): Worker {
  // One worker for the process, started on the first PATCH; unref'd so it never keeps the process alive.
  const w = new Worker(WORKER_ENTRY) as Worker & { unref(): void }
  w.unref()
  w.onmessage = (event: MessageEvent<PatchJobResult>) => {
    const r = event.data
    const p = pending.get(r.id)
    if (!p) return
    pending.delete(r.id)
    clearTimeout(p.timer)
    if ('syntax' in r) p.resolve(r.syntax)
    else p.reject(new HttpError(r.error.status, r.error.code, r.error.description, { headers: r.error.headers }))
  }
  w.onerror = (event) => failAll(new HttpError(500, 'server_error', 'the patch parser failed; try again', { cause: new Error(String((event as ErrorEvent).message)) }))
  return w
}

/**
 * `parsePatch` with the parse off the event loop: the body goes to the worker, the plan is built
 * here from plain data in time linear in its size. Same errors as `parsePatch`.
 */
export async function parsePatchOffThread(body: string, contentType: string | undefined, baseIRI: string): Promise<PatchPlan> {
  const type = checkPatchType(contentType)
  worker ??= startWorker()
  const w = worker
  const id = nextId++
  const syntax = await new Promise<PatchSyntax>((resolve, reject) => {
    const timer = setTimeout(() => failAll(new HttpError(503, 'temporarily_unavailable',
      `parsing a patch took longer than ${PARSE_TIMEOUT_MS / 1000} s; send smaller patches`, { headers: { 'retry-after': '1' } })), PARSE_TIMEOUT_MS)
    pending.set(id, { resolve, reject, timer })
    w.postMessage({ id, body, type, baseIRI } satisfies PatchJob)
  })
  return planPatch(syntax)
}
