// PATCH bodies and large RDF documents parsed on a worker thread: sparqljs can take a second on a 1 MiB
// update, N3.js ~20 ms on a 1 MiB Turtle document, jsonld.js far more; the event loop must keep
// answering every other request meanwhile.

import type { BlankNode, Quad, Term } from '@rdfjs/types'
import { DataFactory } from 'n3'
import { HttpError } from '../http/errors.ts'
import { checkPatchType, planPatch, type PatchSyntax } from './patch.ts'
import type { PatchPlan } from './patch-plan.ts'
import type { ParseJob, ParseJobResult, ParseRequest, PlainDocument } from './parse-worker.ts'
import { parseRdfDocument, type ParsedDocument } from './parse-rdf.ts'
import { fromPlainTerm, type PlainQuad, type PlainTerm } from './plain-terms.ts'
import { JSON_LD, mediaTypeOf } from './media-types.ts'

/** A parse that takes longer than this is stopped (the worker is replaced): caps and the nesting check make it rare. */
const PARSE_TIMEOUT_MS = 10_000

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
const WORKER_ENTRY = import.meta.url.includes('/$bunfs/')
  ? new URL('./rdf/parse-worker.ts', import.meta.url)
  : new URL('./parse-worker.ts', import.meta.url)

interface Pending { resolve(r: ParseJobResult): void; reject(e: unknown): void; timer: ReturnType<typeof setTimeout> }

let worker: Worker | undefined
let nextId = 0
const pending = new Map<number, Pending>()

function failAll(error: HttpError) {
  for (const [id, p] of pending) { clearTimeout(p.timer); p.reject(error); pending.delete(id) }
  worker?.terminate()
  worker = undefined
}

function startWorker(): Worker {
  // One worker for the process, started on the first job; unref'd so it never keeps the process alive.
  const w = new Worker(WORKER_ENTRY) as Worker & { unref(): void }
  w.unref()
  w.onmessage = (event: MessageEvent<ParseJobResult>) => {
    const r = event.data
    const p = pending.get(r.id)
    if (!p) return
    pending.delete(r.id)
    clearTimeout(p.timer)
    if ('error' in r) p.reject(new HttpError(r.error.status, r.error.code, r.error.description, { headers: r.error.headers }))
    else p.resolve(r)
  }
  w.onerror = (event) => failAll(new HttpError(500, 'server_error', 'the RDF parser failed; try again', { cause: new Error(String((event as ErrorEvent).message)) }))
  return w
}

/** Sends one job to the worker; resolves with its answer, rejects with its HttpError, or 503 after PARSE_TIMEOUT_MS. */
function runOnWorker(job: ParseRequest, what: string): Promise<ParseJobResult> {
  worker ??= startWorker()
  const w = worker
  const id = nextId++
  return new Promise<ParseJobResult>((resolve, reject) => {
    const timer = setTimeout(() => failAll(new HttpError(503, 'temporarily_unavailable',
      `parsing ${what} took longer than ${PARSE_TIMEOUT_MS / 1000} s; send smaller ones`, { headers: { 'retry-after': '1' } })), PARSE_TIMEOUT_MS)
    pending.set(id, { resolve, reject, timer })
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
export async function parseRdfDocumentOffThread(body: string, mediaType: string, baseIRI: string): Promise<ParsedDocument> {
  const inline = mediaTypeOf(mediaType) === JSON_LD ? INLINE_BYTES.jsonLd : INLINE_BYTES.turtleFamily
  // body.length counts UTF-16 units: at most the UTF-8 byte count, so no body over the limit stays inline.
  if (body.length <= inline) return parseRdfDocument(body, mediaType, baseIRI)
  const r = await runOnWorker({ kind: 'document', body, mediaType, baseIRI }, 'an RDF document')
  return fromPlainDocument((r as { document: PlainDocument }).document)
}

/**
 * Terms rebuilt on this thread. Blank nodes get fresh labels here: the worker's parser numbers its own,
 * which could equal labels made on this thread, and two documents' blank nodes must never meet.
 */
function fromPlainDocument(doc: PlainDocument): ParsedDocument {
  const blanks = new Map<string, BlankNode>()
  const term = (p: PlainTerm): Term => {
    if (p.t !== 'BlankNode') return fromPlainTerm(p)
    let node = blanks.get(p.v)
    if (!node) blanks.set(p.v, node = DataFactory.blankNode())
    return node
  }
  const triples = doc.triples.map((q: PlainQuad) => DataFactory.quad(term(q[0]) as Quad['subject'], term(q[1]) as Quad['predicate'],
    term(q[2]) as Quad['object'], term(q[3]) as Quad['graph']))
  return { triples, prefixes: doc.prefixes }
}
