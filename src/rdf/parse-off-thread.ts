// PATCH bodies and large RDF documents parsed on a worker thread: sparqljs can take a second on a 1 MiB
// update, N3.js ~20 ms on a 1 MiB Turtle document, jsonld.js far more; the event loop must keep
// answering every other request meanwhile.

import type { BlankNode, Quad, Term } from '@rdfjs/types'
import { DataFactory } from '../lib/n3.ts'
import { HttpError } from '../http/errors.ts'
import type { RefusalCode, StatusOf } from '../http/refusals.ts'
import { checkPatchType, planPatch, type PatchSyntax } from './patch.ts'
import type { PatchPlan } from './patch-plan.ts'
import type { ParseJob, ParseJobResult, ParseRequest, PlainDocument } from './parse-worker.ts'
import { parseRdfDocument, type ParsedDocument, type ParseOptions } from './parse-rdf.ts'
import { fromPlainTerm, type PlainQuad, type PlainTerm } from './plain-terms.ts'
import { JSON_LD, mediaTypeOf } from './media-types.ts'

/**
 * A parse that takes longer than this is stopped (the worker is replaced): caps and the nesting check make it
 * rare. A remote document is at most a few hundred KB (fetch/guarded-fetch.ts REMOTE_DOCUMENT_CAPS).
 * Exported (and writable) only so that a test can see the stop happen without a ten-second parse.
 */
export const PARSE_TIMEOUT_MS: Record<ParseLane, number> = { pod: 10_000, remote: 3_000 }

/**
 * Documents up to this many bytes are parsed on the event loop: about 1 ms each on a small 2-core box
 * (N3.js ~55 MB/s for Turtle and N-Triples, jsonld.js ~3 MB/s), less than the worker's round trip
 * (message, structured clone, rebuilding the terms) costs a small write such as the 1 KB PUT.
 */
const INLINE_BYTES = { turtleFamily: 64 * 1024, jsonLd: 4 * 1024 }

/**
 * In a compiled binary (`bun run build`) every module's import.meta.url is the executable's, and a
 * worker entry sits at its path under src/ (build-executable.ts lists it as an entrypoint).
 */
const WORKER_ENTRY = import.meta.url.includes('/$bunfs/') ? new URL('./rdf/parse-worker.ts', import.meta.url) : new URL('./parse-worker.ts', import.meta.url)

/**
 * Documents fetched from elsewhere for a stranger's request (key documents, WebID profiles) are parsed
 * on a worker of their own: a flood of them queues there, never in front of the owner's PATCH.
 */
export type ParseLane = 'pod' | 'remote'

interface Pending {
  lane: ParseLane
  resolve(r: ParseJobResult): void
  reject(e: unknown): void
  timer: ReturnType<typeof setTimeout>
}

const workers = new Map<ParseLane, Worker>()
const jobsSent: Record<ParseLane, number> = { pod: 0, remote: 0 }
let nextId = 0
const pending = new Map<number, Pending>()

function failAll(lane: ParseLane, error: HttpError) {
  for (const [id, p] of pending)
    if (p.lane === lane) {
      clearTimeout(p.timer)
      p.reject(error)
      pending.delete(id)
    }
  workers.get(lane)?.terminate()
  workers.delete(lane)
}

function startWorker(lane: ParseLane): Worker {
  // One worker per lane for the process, started on its first job; unref'd so it never keeps the process alive.
  const w = new Worker(WORKER_ENTRY) as Worker & { unref(): void }
  w.unref()
  w.onmessage = (event: MessageEvent<ParseJobResult>) => {
    const r = event.data
    const p = pending.get(r.id)
    if (!p) return
    pending.delete(r.id)
    clearTimeout(p.timer)
    if ('error' in r) p.reject(new HttpError(r.error.status as StatusOf<RefusalCode>, r.error.code, r.error.description, { headers: r.error.headers }))
    else p.resolve(r)
  }
  w.onerror = event =>
    failAll(lane, new HttpError(500, 'server_error', 'the RDF parser failed; try again', { cause: new Error(String((event as ErrorEvent).message)) }))
  return w
}

/** Sends one job to the lane's worker; resolves with its answer, rejects with its HttpError, or 503 after PARSE_TIMEOUT_MS. */
function runOnWorker(job: ParseRequest, what: string, lane: ParseLane = 'pod'): Promise<ParseJobResult> {
  let w = workers.get(lane)
  if (!w) workers.set(lane, (w = startWorker(lane)))
  const id = nextId++
  jobsSent[lane]++
  return new Promise<ParseJobResult>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        failAll(
          lane,
          new HttpError(503, 'temporarily_unavailable', `parsing ${what} took longer than ${PARSE_TIMEOUT_MS[lane] / 1000} s; send smaller ones`, {
            headers: { 'retry-after': '1' },
          }),
        ),
      PARSE_TIMEOUT_MS[lane],
    )
    pending.set(id, { lane, resolve, reject, timer })
    w.postMessage({ ...job, id } satisfies ParseJob)
  })
}

/**
 * `parsePatch` with the parse off the event loop: the body goes to the worker, the plan is built
 * here from plain data in time linear in its size. Same errors as `parsePatch`.
 */
export async function parsePatchOffThread(body: string, contentType: string | undefined, baseIRI: string): Promise<PatchPlan> {
  const type = checkPatchType(contentType)
  const r = await runOnWorker({ kind: 'patch', body, type, baseIRI }, 'a patch')
  return planPatch((r as { syntax: PatchSyntax }).syntax)
}

/**
 * `parseRdfDocument` (same result, same errors) that keeps the event loop free: a large body is parsed
 * on the worker, a small one here (INLINE_BYTES).
 */
export async function parseRdfDocumentOffThread(body: string, mediaType: string, baseIRI: string, options: ParseOptions = {}): Promise<ParsedDocument> {
  const inline = mediaTypeOf(mediaType) === JSON_LD ? INLINE_BYTES.jsonLd : INLINE_BYTES.turtleFamily
  // body.length counts UTF-16 units: at most the UTF-8 byte count, so no body over the limit stays inline.
  if (body.length <= inline) return parseRdfDocument(body, mediaType, baseIRI, options)
  const r = await runOnWorker({ kind: 'document', body, mediaType, baseIRI, options }, 'an RDF document')
  return fromPlainDocument((r as { document: PlainDocument }).document)
}

/**
 * A document fetched from elsewhere, parsed on the remote lane's worker whatever its size: its bytes are
 * a stranger's choice, and even a small JSON-LD document can take jsonld.js long. Same errors as parseRdf.
 */
export async function parseRemoteRdf(body: string, mediaType: string, baseIRI: string): Promise<Quad[]> {
  const r = await runOnWorker({ kind: 'document', body, mediaType, baseIRI }, 'a remote document', 'remote')
  return fromPlainDocument((r as { document: PlainDocument }).document).triples
}

/** Parse jobs sent to a lane's worker so far (tests read that remote documents go there). */
export const parseJobsSent = (lane: ParseLane): number => jobsSent[lane]

/**
 * Terms rebuilt on this thread. Blank nodes get fresh labels here: the worker's parser numbers its own,
 * which could equal labels made on this thread, and two documents' blank nodes must never meet.
 */
function fromPlainDocument(doc: PlainDocument): ParsedDocument {
  const blanks = new Map<string, BlankNode>()
  const term = (p: PlainTerm): Term => {
    if (p.t !== 'BlankNode') return fromPlainTerm(p)
    let node = blanks.get(p.v)
    if (!node) blanks.set(p.v, (node = DataFactory.blankNode()))
    return node
  }
  const rebuild = (q: PlainQuad) =>
    DataFactory.quad(term(q[0]) as Quad['subject'], term(q[1]) as Quad['predicate'], term(q[2]) as Quad['object'], term(q[3]) as Quad['graph'])
  return { triples: doc.triples.map(rebuild), namedGraphs: doc.namedGraphs.map(rebuild), prefixes: doc.prefixes }
}
