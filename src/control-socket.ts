// The running pod's control socket: `solopod export` asks the server holding the database for a snapshot export.

import { chmodSync, existsSync, rmSync } from 'node:fs'
import { createConnection } from 'node:net'
import { join } from 'node:path'
import type { Store } from './store/open-store.ts'
import { exportPod, ExportError, type ExportCounts } from './store/export-pod.ts'
import { log, describeCause } from './log.ts'

/**
 * LevelDB lets one process open a database, so a second `solopod` cannot read a running pod's data
 * directory. The server listens on a Unix socket inside the data directory instead: only who may
 * read the data directory (the pod's own OS user: the socket is 0600) can connect, which is exactly
 * who could copy the database anyway, so no further credential is asked for.
 */
export const CONTROL_SOCKET = 'control.sock'
/** sockaddr_un holds 108 bytes on Linux (107 on some systems) including the terminator. */
const MAX_SOCKET_PATH = 100

interface ExportRequest { readonly command: 'export'; readonly dest: string }
type Reply = { readonly ok: true; readonly counts: ExportCounts } | { readonly ok: false; readonly error: string }

/** Starts the control socket of a serving pod; resolves to a function that stops it and removes the file. */
export async function serveControlSocket(dataDir: string, store: Store): Promise<() => Promise<void>> {
  const path = join(dataDir, CONTROL_SOCKET)
  if (path.length > MAX_SOCKET_PATH) {
    log.warn('control_socket.unavailable', { reason: `the data directory path is too long for a Unix socket (${path.length} > ${MAX_SOCKET_PATH} bytes); export needs the server stopped` })
    return async () => {}
  }
  // The database lock guarantees no other pod serves this directory: a socket file left here is stale.
  rmSync(path, { force: true })
  let exporting = false
  async function handle(line: string): Promise<Reply> {
    let request: ExportRequest
    try { request = JSON.parse(line) as ExportRequest } catch { return { ok: false, error: 'the request is not JSON' } }
    if (request.command !== 'export' || typeof request.dest !== 'string' || !request.dest.startsWith('/')) {
      return { ok: false, error: 'expected {"command":"export","dest":"/absolute/path"}' }
    }
    if (exporting) return { ok: false, error: 'an export is already running; wait for it to finish' }
    exporting = true
    const started = performance.now()
    try {
      const counts = await exportPod(store, request.dest)
      log.info('export.finished', { resources: counts.resources, quads: counts.quads, ms: Math.round(performance.now() - started) })
      return { ok: true, counts }
    } catch (err) {
      log.warn('export.failed', { cause: describeCause(err) })
      return { ok: false, error: err instanceof ExportError ? err.message : `the export failed: ${describeCause(err)}` }
    } finally {
      exporting = false
    }
  }

  // Bun's own listener (not node:net's): a node:net server in the process made Bun.serve's graceful
  // stop reset connections still uploading their body (seen in the SIGTERM durability test).
  const inputs = new WeakMap<object, string>()
  const listener = Bun.listen({
    unix: path,
    socket: {
      open(conn) { inputs.set(conn, '') },
      async data(conn, chunk) {
        const input = inputs.get(conn)
        if (input === undefined) return
        const text = input + new TextDecoder().decode(chunk)
        const end = text.indexOf('\n')
        if (end < 0 && text.length <= 64 * 1024) { inputs.set(conn, text); return }
        inputs.delete(conn)
        const reply: Reply = end < 0 ? { ok: false, error: 'request too long' } : await handle(text.slice(0, end))
        conn.end(`${JSON.stringify(reply)}\n`)
      },
      error(_conn, err) { log.warn('control_socket.connection_failed', { cause: describeCause(err) }) },
    },
  })
  chmodSync(path, 0o600)
  return async () => {
    listener.stop(true)
    rmSync(path, { force: true })
  }
}

/**
 * Exports through the pod serving `dataDir`, if one is; undefined when none is (no socket, or a
 * stale one), so the caller opens the database itself.
 */
export async function exportThroughRunningPod(dataDir: string, dest: string): Promise<ExportCounts | undefined> {
  const path = join(dataDir, CONTROL_SOCKET)
  if (!existsSync(path)) return undefined
  const reply = await new Promise<Reply | undefined>((resolve, reject) => {
    const conn = createConnection(path)
    let output = ''
    conn.setEncoding('utf8')
    conn.on('connect', () => conn.write(`${JSON.stringify({ command: 'export', dest } satisfies ExportRequest)}\n`))
    conn.on('data', (chunk: string) => { output += chunk })
    conn.on('end', () => {
      try { resolve(JSON.parse(output) as Reply) } catch { reject(new ExportError('the running pod closed the control socket without an answer')) }
    })
    conn.on('error', (err: NodeJS.ErrnoException) => {
      // Nobody listening: the file is left from a pod that is no longer running.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(undefined)
      else reject(new ExportError(`cannot reach the running pod through ${path}: ${err.message}`))
    })
  })
  if (reply === undefined) return undefined
  if (!reply.ok) throw new ExportError(reply.error)
  return reply.counts
}
