// The running server's local control socket: `solopod setup-link` asks it for a new one-time link.
//
// LevelDB admits one process per database, so while the server runs no other command can write a
// setup token. The socket lives in the data directory, in a folder only the server's user may enter:
// whoever can reach it could read the database files anyway. Nothing is reachable over the network.

import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const SOCKET_DIR = 'run'
const SOCKET_NAME = 'control.sock'
const SETUP_LINK_PATH = '/setup-link'
/** sun_path is 108 bytes on Linux (104 on macOS): a longer path cannot be bound. */
const MAX_SOCKET_PATH = 100

export const controlSocketPath = (dataDir: string) => join(dataDir, SOCKET_DIR, SOCKET_NAME)

export class ControlSocketError extends Error {}

/** Serves the control socket; `issueSetupLink` makes a new one-time link. Returns a stop function. */
export function openControlSocket(dataDir: string, issueSetupLink: () => Promise<string>): () => void {
  const path = controlSocketPath(dataDir)
  if (path.length > MAX_SOCKET_PATH) throw new ControlSocketError(`the socket path ${path} is longer than ${MAX_SOCKET_PATH} bytes`)
  const dir = join(dataDir, SOCKET_DIR)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
  // We hold the database lock, so a socket file left here is from a server that died: remove it.
  rmSync(path, { force: true })
  const server = Bun.serve({
    unix: path,
    async fetch(request) {
      if (new URL(request.url).pathname !== SETUP_LINK_PATH || request.method !== 'POST') return new Response('not found\n', { status: 404 })
      return Response.json({ link: await issueSetupLink() })
    },
  })
  chmodSync(path, 0o600)
  return () => {
    server.stop(true)
    rmSync(path, { force: true })
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
  const { link } = await res.json() as { link: string }
  return link
}
