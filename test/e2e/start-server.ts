// Starts the real pod as a subprocess on a free loopback port with a temporary data directory.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'

export const OWNER_PASSWORD = 'correct horse battery staple'

export interface RunningPod {
  readonly baseUrl: string
  readonly port: number
  readonly dataDir: string
  readonly proc: Subprocess
  /** Everything the server printed so far (stdout + stderr). */
  output(): string
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Stops and removes the data directory. */
  dispose(): Promise<void>
}

export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}

export interface StartOptions {
  dataDir?: string
  port?: number
  extraArgs?: string[]
  /** Runs against the data directory before the server starts (e.g. seeding ACLs through the store API). */
  seed?: (dataDir: string, baseUrl: string) => Promise<void>
}

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')

/** Runs one `solopod` command (export, import, passwd …) to its end, as an operator would. */
export async function runSolopod(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, ...args, '--log-level', 'warn'], { stdout: 'pipe', stderr: 'pipe' })
  const [stdout, stderr] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
  return { code: await proc.exited, stdout, stderr }
}

export async function startPod(opts: StartOptions = {}): Promise<RunningPod> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'solopod-test-'))
  const port = opts.port ?? await freePort()
  const baseUrl = `http://localhost:${port}`
  const pwFile = join(dataDir, '..', `pw-${port}-${process.pid}`)
  writeFileSync(pwFile, OWNER_PASSWORD)
  if (opts.seed) await opts.seed(dataDir, baseUrl)
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', String(port), '--base-url', baseUrl,
    '--data', dataDir, '--owner-password-file', pwFile, ...(opts.extraArgs ?? [])], { stdout: 'pipe', stderr: 'pipe' })
  let out = ''
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    const reader = stream.getReader()
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) out += decoder.decode(chunk.value)
  }
  void drain(proc.stdout as ReadableStream<Uint8Array>)
  void drain(proc.stderr as ReadableStream<Uint8Array>)
  const deadline = Date.now() + 15_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`pod exited with ${proc.exitCode}: ${out}`)
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) })
      break
    } catch {
      if (Date.now() > deadline) { proc.kill(); throw new Error(`pod did not start: ${out}`) }
      await Bun.sleep(50)
    }
  }
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) { proc.kill(signal); await proc.exited }
  }
  return {
    baseUrl, port, dataDir, proc, output: () => out, stop,
    dispose: async () => { await stop(); rmSync(dataDir, { recursive: true, force: true }); rmSync(pwFile, { force: true }) },
  }
}
