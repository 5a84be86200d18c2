// Starts the real pod as a subprocess on a loopback port the system picks, with a temporary data directory.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { Subprocess } from 'bun'

export const OWNER_PASSWORD = 'correct horse battery staple'

export interface RunningPod {
  readonly baseUrl: string
  readonly port: number
  readonly dataDir: string
  readonly proc: Subprocess
  /** Everything the server printed so far (stdout + stderr). */
  output(): string
  /** The JSON log stream so far. */
  stdout(): string
  /** What the server printed for a person so far (banner, setup link). */
  stderr(): string
  stop(signal?: NodeJS.Signals): Promise<void>
  /** Stops and removes the data directory. */
  dispose(): Promise<void>
}

/** For tests that start a server binary by hand: probes a free port (it can race with other processes). */
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
  /** Start without --owner-password-file: the pod prints a one-time setup link instead (see setupLink). */
  withoutPassword?: boolean
  /** Runs against the data directory before the server starts (e.g. seeding ACLs through the store API). */
  seed?: (dataDir: string, baseUrl: string) => Promise<void>
  /**
   * Serve HTTPS at https://localhost:PORT with this PEM pair. The certificate is also the pod's trusted CA
   * for remote documents (NODE_EXTRA_CA_CERTS), so pods made with one self-signed certificate trust each other.
   */
  tls?: { cert: string; key: string }
}

const MAIN = join(import.meta.dir, '..', '..', 'src', 'main.ts')

const SERVING = /solopod: serving (\S+) on \S+:(\d+)/

export async function startPod(opts: StartOptions = {}): Promise<RunningPod> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'solopod-test-'))
  if (opts.seed && opts.port === undefined) {
    // A seed needs the base URL, which names the port: a first start lets the system pick the port
    // (no probe-and-reuse race), then the seed runs on the stopped pod and it starts again on that port.
    const first = await startPod({ ...opts, dataDir, seed: undefined })
    await first.stop()
    return startPod({ ...opts, dataDir, port: first.port })
  }
  const pwFile = join(dataDir, '..', `pw-${basename(dataDir)}`)
  writeFileSync(pwFile, OWNER_PASSWORD)
  const scheme = opts.tls ? 'https' : 'http'
  if (opts.seed) await opts.seed(dataDir, `${scheme}://localhost:${opts.port}`)
  // Without a port the server binds port 0 and reports the port it got (its base URL follows it).
  const where = opts.port === undefined ? ['--port', '0'] : ['--port', String(opts.port), '--base-url', `${scheme}://localhost:${opts.port}`]
  const tls = opts.tls ? ['--tls-cert', opts.tls.cert, '--tls-key', opts.tls.key] : []
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', ...where, ...tls,
    '--data', dataDir, ...(opts.withoutPassword ? [] : ['--owner-password-file', pwFile]), ...(opts.extraArgs ?? [])],
  { stdout: 'pipe', stderr: 'pipe', ...(opts.tls ? { env: { ...process.env, NODE_EXTRA_CA_CERTS: opts.tls.cert } } : {}) })
  let out = ''
  const streams = { stdout: '', stderr: '' }
  const drain = async (stream: ReadableStream<Uint8Array>, name: 'stdout' | 'stderr') => {
    const decoder = new TextDecoder()
    const reader = stream.getReader()
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const text = decoder.decode(chunk.value)
      out += text
      streams[name] += text
    }
  }
  const drained = Promise.all([drain(proc.stdout as ReadableStream<Uint8Array>, 'stdout'), drain(proc.stderr as ReadableStream<Uint8Array>, 'stderr')])
  // Ready when the pod says where it serves (printed once its handler is in place), or failed when it exits first.
  const deadline = Date.now() + 15_000
  let serving: RegExpExecArray | null
  while (!(serving = SERVING.exec(out))) {
    if (proc.exitCode !== null) { await drained; throw new Error(`pod exited with ${proc.exitCode}: ${out}`) }
    if (Date.now() > deadline) { proc.kill(); throw new Error(`pod did not start: ${out}`) }
    await Promise.race([proc.exited, Bun.sleep(20)])
  }
  const baseUrl = serving[1]!
  const port = Number(serving[2])
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (proc.exitCode === null && proc.signalCode === null) { proc.kill(signal); await proc.exited }
  }
  return {
    baseUrl, port, dataDir, proc, output: () => out, stdout: () => streams.stdout, stderr: () => streams.stderr, stop,
    dispose: async () => { await stop(); rmSync(dataDir, { recursive: true, force: true }); rmSync(pwFile, { force: true }) },
  }
}

/** The one-time setup link a pod started `withoutPassword` printed on its first start. */
export async function setupLink(pod: RunningPod): Promise<string> {
  const deadline = Date.now() + 5_000
  for (;;) {
    const m = /https?:\/\/\S+\/\.admin\/setup\?token=[\w-]+/.exec(pod.stderr())
    if (m) return m[0]
    if (Date.now() > deadline) throw new Error(`no setup link printed: ${pod.output()}`)
    await Bun.sleep(20)
  }
}
