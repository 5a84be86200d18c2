// Starts one of the bench's bare Bun.serve ceilings (bare-server.ts, bare-file-server.ts) in its own process, as
// the pod runs in its own: the script prints `port N` once listening.

import { join } from 'node:path'

export async function startBare(script: string, ...args: string[]): Promise<{ origin: string; pid: number; stop(): Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, script), ...args], { stdout: 'pipe', stderr: 'inherit' })
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader()
  const { value } = await reader.read()
  const port = /port (\d+)/.exec(new TextDecoder().decode(value))?.[1]
  if (!port) {
    proc.kill()
    throw new Error(`${script} did not report its port`)
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: proc.pid,
    stop: async () => {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}
