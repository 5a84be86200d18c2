// The running server's local control socket: `solopod setup-link` asks it for a new one-time link,
// `solopod export` for a snapshot export of the running pod, `solopod clients` to add, list and remove
// client credentials, `solopod links` share links, the benchmark for a memory report.
//
// LevelDB admits one process per database, so while the server runs no other command can write a
// setup token. The socket lives in the data directory, in a folder only the server's user may enter:
// whoever can reach it could read the database files anyway. Nothing is reachable over the network.

import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { heapStats } from 'bun:jsc'
import { UserError } from '../lib/user-error.ts'
import { HttpError } from '../http/errors.ts'
import type { ClientCredentialActions } from './client-credential-actions.ts'
import type { ShareLinkActions } from './share-link-actions.ts'
import type { BlobLocation } from '../store/blob-location.ts'
import type { MoveReport } from '../store/move-blobs.ts'
import type { S3Credentials } from '../store/s3-blob-store.ts'
import { describeCause } from '../log.ts'

const SOCKET_DIR = 'run'
const SOCKET_NAME = 'control.sock'
const SETUP_LINK_PATH = '/setup-link'
const EXPORT_PATH = '/export'
const MEMORY_PATH = '/memory'
/** `/clients/add`, `/clients/list`, `/clients/remove`. */
const CLIENTS_PATH = '/clients/'
const CLIENT_OPS = ['add', 'list', 'remove'] as const
export type ClientOp = (typeof CLIENT_OPS)[number]
/** `/links/add`, `/links/list`, `/links/remove`: the same three for share links, and `/links/settings`, their expiry settings. */
const LINKS_PATH = '/links/'
const LINK_OPS = [...CLIENT_OPS, 'settings'] as const
export type LinkOp = (typeof LINK_OPS)[number]
/** `solopod blobs move`: the running server moves its own bytes (it alone may write the records). */
const BLOBS_MOVE_PATH = '/blobs/move'
/** sun_path is 108 bytes on Linux (104 on macOS): a longer path cannot be bound. */
const MAX_SOCKET_PATH = 100

export const controlSocketPath = (dataDir: string) => join(dataDir, SOCKET_DIR, SOCKET_NAME)

export class ControlSocketError extends UserError {}

/** What the running server does when asked on its control socket. */
export interface ControlActions {
  /** A new one-time setup link. */
  issueSetupLink(): Promise<string>
  /**
   * Writes an export of the pod to `dest` (absolute, new or empty) from one database snapshot and
   * returns its counts; throws an Error whose message says what was wrong with `dest`.
   */
  exportTo(dest: string): Promise<Record<string, number>>
  /** Synced batches written and the resource writes they held (group commit), for the memory report. */
  commitStats?(): { readonly batches: number; readonly writes: number }
  /** `solopod clients …` while the server holds the database. */
  clients?: ClientCredentialActions
  /** `solopod links …` while the server holds the database. */
  links?: ShareLinkActions
  /** `solopod blobs move`; `keys` are the command's (a server of a local pod has none); `progress` is told lines. */
  moveBlobs?(to: BlobLocation, keys: S3Credentials | undefined, progress: (line: string) => void, signal: AbortSignal): Promise<MoveReport>
}

/** What the command reads, one JSON object a line: `{progress}` lines, then `{report}` or `{error}`. */
export type MoveLine = { readonly progress: string } | { readonly report: MoveReport } | { readonly error: string } | { readonly alive: true }

/** A line at least this often while a move is silent (a large blob copied, old copies waiting): an idle connection is cut. */
const ALIVE_EVERY_MS = 4000

const isLocation = (v: unknown): v is BlobLocation => {
  const l = v as Record<string, unknown> | undefined
  if (l?.kind === 'local') return true
  return l?.kind === 's3' && ['bucket', 'prefix', 'endpoint', 'region'].every(k => typeof l[k] === 'string')
}

/** Streams the move's progress while it runs: it may take hours, and the command shows where it is. */
async function answerMove(move: ControlActions['moveBlobs'], request: Request): Promise<Response> {
  if (!move) return new Response('not found\n', { status: 404 })
  const body = (await request.json().catch(() => ({}))) as { to?: unknown; keys?: { accessKeyId?: unknown; secretAccessKey?: unknown } }
  if (!isLocation(body.to)) return Response.json({ error: 'expected a JSON body {"to": location}' }, { status: 400 })
  const { accessKeyId, secretAccessKey } = body.keys ?? {}
  const keys = typeof accessKeyId === 'string' && typeof secretAccessKey === 'string' ? { accessKeyId, secretAccessKey } : undefined
  const to = body.to
  const encoder = new TextEncoder()
  return new Response(
    new ReadableStream<Uint8Array>({
      async start(controller) {
        const say = (line: MoveLine) => {
          try {
            controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`))
          } catch {
            /* the command went away: the move stops at the next blob (request.signal) */
          }
        }
        const alive = setInterval(() => say({ alive: true }), ALIVE_EVERY_MS)
        try {
          say({ report: await move(to, keys, progress => say({ progress }), request.signal) })
        } catch (err) {
          say({ error: err instanceof UserError ? err.message : `failed: ${describeCause(err)}` })
        } finally {
          clearInterval(alive)
        }
        try {
          controller.close()
        } catch {
          /* already gone */
        }
      },
    }),
    { headers: { 'content-type': 'application/x-ndjson' } },
  )
}

/** One `solopod clients` action from its JSON body; a refusal's description goes back to the command (never a secret: none is sent in). */
async function answerClients(clients: ClientCredentialActions | undefined, op: string, request: Request): Promise<Response> {
  if (!clients || !(CLIENT_OPS as readonly string[]).includes(op)) return new Response('not found\n', { status: 404 })
  const body = (await request.json().catch(() => ({}))) as { name?: unknown; scope?: unknown; id?: unknown }
  try {
    if (op === 'list') return Response.json({ answer: await clients.list() })
    if (op === 'remove') return Response.json({ answer: await clients.remove(String(body.id)) })
    const scope = Array.isArray(body.scope)
      ? body.scope.map((e: { path?: unknown; right?: unknown }) => ({ path: String(e.path), right: String(e.right) }))
      : undefined
    return Response.json({ answer: await clients.add(String(body.name ?? ''), scope) })
  } catch (err) {
    if (err instanceof HttpError) return Response.json({ error: err.description }, { status: 400 })
    throw err
  }
}

/** One `solopod links` action from its JSON body; the answer of `add` holds the link's URL (with its token) for the command alone. */
async function answerLinks(links: ShareLinkActions | undefined, op: string, request: Request): Promise<Response> {
  if (!links || !(LINK_OPS as readonly string[]).includes(op)) return new Response('not found\n', { status: 404 })
  const body = (await request.json().catch(() => ({}))) as Record<string, unknown>
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined)
  try {
    if (op === 'list') return Response.json({ answer: await links.list() })
    if (op === 'remove') return Response.json({ answer: await links.remove(String(body.id)) })
    if (op === 'settings') {
      const [defaultExpiry, maxExpiry] = [text(body.defaultExpiry), text(body.maxExpiry)]
      return Response.json({
        answer: await links.settings({ ...(defaultExpiry !== undefined ? { defaultExpiry } : {}), ...(maxExpiry !== undefined ? { maxExpiry } : {}) }),
      })
    }
    const [expires, allows, name] = [text(body.expires), text(body.allows), text(body.name)]
    return Response.json({
      answer: await links.add({
        path: String(body.path ?? ''),
        ...(expires ? { expires } : {}),
        ...(allows ? { allows } : {}),
        ...(name !== undefined ? { name } : {}),
        ...(typeof body.password === 'string' ? { password: body.password } : {}),
        ...(typeof body.maxDownloads === 'number' ? { maxDownloads: body.maxDownloads } : {}),
      }),
    })
  } catch (err) {
    if (err instanceof HttpError) return Response.json({ error: err.description }, { status: 400 })
    throw err
  }
}

/** Serves the control socket. Returns a stop function. */
export function openControlSocket(dataDir: string, actions: ControlActions): () => void {
  const path = controlSocketPath(dataDir)
  if (path.length > MAX_SOCKET_PATH) throw new ControlSocketError(`the socket path ${path} is longer than ${MAX_SOCKET_PATH} bytes`)
  const dir = join(dataDir, SOCKET_DIR)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  // We hold the database lock, so a socket file left here is from a server that died: remove it.
  rmSync(path, { force: true })
  let exporting = false
  const exportTo = async (request: Request): Promise<Response> => {
    let dest: unknown
    try {
      dest = ((await request.json()) as { dest?: unknown }).dest
    } catch {
      dest = undefined
    }
    if (typeof dest !== 'string' || !dest.startsWith('/')) return Response.json({ error: 'expected a JSON body {"dest": "/absolute/path"}' }, { status: 400 })
    // One export at a time: each holds a snapshot (old table files stay on disk until it ends).
    if (exporting) return Response.json({ error: 'an export is already running; wait for it to finish' }, { status: 409 })
    exporting = true
    try {
      return Response.json({ counts: await actions.exportTo(dest) })
    } catch (err) {
      return Response.json({ error: err instanceof Error ? err.message : String(err) }, { status: 422 })
    } finally {
      exporting = false
    }
  }
  const server = Bun.serve({
    unix: path,
    async fetch(request) {
      const route = request.method === 'POST' ? new URL(request.url).pathname : undefined
      if (route === SETUP_LINK_PATH) return Response.json({ link: await actions.issueSetupLink() })
      if (route === EXPORT_PATH) return exportTo(request)
      if (route?.startsWith(CLIENTS_PATH)) return answerClients(actions.clients, route.slice(CLIENTS_PATH.length), request)
      if (route?.startsWith(LINKS_PATH)) return answerLinks(actions.links, route.slice(LINKS_PATH.length), request)
      if (route === BLOBS_MOVE_PATH) return answerMove(actions.moveBlobs, request)
      if (route === MEMORY_PATH) {
        const commits = actions.commitStats?.()
        return Response.json({ ...memoryReport(new URL(request.url).searchParams.has('gc')), ...(commits ? { commits: { ...commits } } : {}) })
      }
      return new Response('not found\n', { status: 404 })
    },
    // Never Bun's development error page (source paths and code), here no more than on the pod's port.
    development: false,
    error: err => Response.json({ error: err.message }, { status: 500 }),
  })
  chmodSync(path, 0o600)
  return () => {
    server.stop(true)
    rmSync(path, { force: true })
  }
}

/**
 * Where the process's memory is, for `bun run bench` and `bun run soak` (the memory the pod holds after load must be visible without a debugger): the JS
 * heap as JavaScriptCore counts it against the resident set, so the rest is native (LevelDB, the
 * allocators). `gc` collects first, so the heap figures are live objects, not garbage.
 */
export interface MemoryReport {
  readonly rssMb: number
  readonly heapMb: number
  readonly heapCapacityMb: number
  readonly heapObjects: number
  readonly externalMb: number
  readonly arrayBuffersMb: number
  /** Synced batches and the writes they held since the start: fewer batches than writes means writes were merged. */
  readonly commits?: { readonly batches: number; readonly writes: number }
}

function memoryReport(gc: boolean): MemoryReport {
  if (gc) Bun.gc(true)
  const usage = process.memoryUsage()
  const heap = heapStats()
  const mb = (bytes: number) => Math.round(bytes / 1024 / 10.24) / 100
  return {
    rssMb: mb(usage.rss),
    heapMb: mb(heap.heapSize),
    heapCapacityMb: mb(heap.heapCapacity),
    heapObjects: heap.objectCount,
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
  }
}

/** The memory report of the server running on `dataDir`; undefined when no server listens there. */
export async function requestMemoryReport(dataDir: string, opts: { gc?: boolean } = {}): Promise<MemoryReport | undefined> {
  try {
    const res = await fetch(`http://solopod${MEMORY_PATH}${opts.gc ? '?gc' : ''}`, {
      method: 'POST',
      unix: controlSocketPath(dataDir),
      signal: AbortSignal.timeout(10_000),
    })
    return res.ok ? ((await res.json()) as MemoryReport) : undefined
  } catch {
    return undefined
  }
}

/** A new setup link from the server running on `dataDir`; undefined when no server listens there. */
export async function requestSetupLink(dataDir: string): Promise<string | undefined> {
  let res: Response
  try {
    res = await fetch(`http://solopod${SETUP_LINK_PATH}`, { method: 'POST', unix: controlSocketPath(dataDir), signal: AbortSignal.timeout(5000) })
  } catch {
    return undefined
  }
  if (!res.ok) throw new ControlSocketError(`the running server answered ${res.status} on its control socket`)
  const { link } = (await res.json()) as { link: string }
  return link
}

/**
 * Has the server running on `dataDir` export the pod to `dest`; undefined when no server listens
 * there (the caller then opens the database itself). Exports take as long as the pod is large: no timeout.
 */
export async function requestExport(dataDir: string, dest: string): Promise<Record<string, number> | undefined> {
  let res: Response
  try {
    res = await fetch(`http://solopod${EXPORT_PATH}`, {
      method: 'POST',
      unix: controlSocketPath(dataDir),
      body: JSON.stringify({ dest }),
      headers: { 'content-type': 'application/json' },
    })
  } catch {
    return undefined
  }
  const answer = (await res.json()) as { counts?: Record<string, number>; error?: string }
  if (!res.ok || !answer.counts) throw new ControlSocketError(answer.error ?? `the running server answered ${res.status} on its control socket`)
  return answer.counts
}

/**
 * A `solopod clients` action done by the server running on `dataDir`: its answer, or undefined when no server
 * listens there (the command then opens the database itself). A refusal (a folder not usable) is thrown.
 */
export const requestClientsAction = (dataDir: string, op: ClientOp, body: Record<string, unknown>) => requestAction(dataDir, CLIENTS_PATH, op, body)
/** A `solopod links` action done by the running server, as requestClientsAction. */
export const requestLinksAction = (dataDir: string, op: LinkOp, body: Record<string, unknown>) => requestAction(dataDir, LINKS_PATH, op, body)

async function requestAction(dataDir: string, prefix: string, op: LinkOp, body: Record<string, unknown>): Promise<{ answer: unknown } | undefined> {
  let res: Response
  try {
    res = await fetch(`http://solopod${prefix}${op}`, {
      method: 'POST',
      unix: controlSocketPath(dataDir),
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      signal: AbortSignal.timeout(10_000),
    })
  } catch {
    return undefined
  }
  const answer = (await res.json().catch(() => ({}))) as { answer?: unknown; error?: string }
  if (!res.ok || !('answer' in answer)) throw new ControlSocketError(answer.error ?? `the running server answered ${res.status} on its control socket`)
  return { answer: answer.answer }
}

/**
 * Has the server running on `dataDir` move its blobs, telling each line as it comes; undefined when no server listens
 * there (the command then moves them itself). No timeout: a move takes as long as the bytes.
 */
export async function requestBlobsMove(
  dataDir: string,
  to: BlobLocation,
  keys: S3Credentials | undefined,
  onLine: (line: MoveLine) => void,
): Promise<true | undefined> {
  let res: Response
  try {
    res = await fetch(`http://solopod${BLOBS_MOVE_PATH}`, {
      method: 'POST',
      unix: controlSocketPath(dataDir),
      body: JSON.stringify({ to, ...(keys ? { keys } : {}) }),
      headers: { 'content-type': 'application/json' },
    })
  } catch {
    return undefined
  }
  if (!res.ok || !res.body) throw new ControlSocketError(`the running server answered ${res.status} on its control socket (is it an older solopod?)`)
  let rest = ''
  const decoder = new TextDecoder()
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true })
      const lines = rest.split('\n')
      rest = lines.pop()!
      for (const line of lines) if (line !== '') onLine(JSON.parse(line) as MoveLine)
    }
  } catch {
    throw new ControlSocketError('the running server stopped answering during the move; run the move again once it runs (it resumes)')
  }
  return true
}
